// Live viewers of a run: every answer of GET /api/runs/:id carries an ETag, and an unchanged run answers
// If-None-Match with a 304 and no body. Also measured: 100 polls of an unchanged run, full vs 304.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { dispatchTask } from "@/lib/services/runs";
import { makePerson } from "@/lib/testing/access-fixture";
import { callRoute } from "@/lib/testing/call-route";
import { check, createHarness, makeScenario, settle, type Harness } from "@/lib/testing/runner-harness";
import { GET as getRun } from "./runs/[id]/route";
import { GET as getLines } from "./runs/[id]/attempts/[n]/checks/[checkId]/log/lines/route";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  token = (await makePerson("etag-admin", { admin: true })).token;
});
afterAll(async () => h.cleanup());

describe("ETag on a run and a log page", () => {
  it("an unchanged run is a 304 without a body; a changed one is a 200 with a new ETag", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("unit", "seq 1 50")] });
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    const ask = (etag?: string) =>
      callRoute(getRun, {
        path: `/api/runs/${run.id}`,
        params: { id: run.id },
        token,
        headers: etag ? { "if-none-match": etag } : {},
      });
    const early = await ask();
    expect(early.status).toBe(200);
    const earlyTag = early.headers.get("etag")!;
    expect(earlyTag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(early.headers.get("cache-control")).toBe("private, no-cache");
    await settle(h, run.id);

    const changed = await ask(earlyTag);
    expect(changed.status).toBe(200);
    expect(changed.json.ending).toBe("accepted");
    const tag = changed.headers.get("etag")!;
    expect(tag).not.toBe(earlyTag);
    const same = await ask(tag);
    expect(same.status).toBe(304);
    expect(same.text).toBe("");
    expect((await ask(`"other", W/${tag}`)).status).toBe(304);
    // `*`: any copy of the run as it is now.
    expect((await ask("*")).status).toBe(304);
    expect((await ask(`"other"`)).status).toBe(200);

    const lines = (etag?: string) =>
      callRoute(getLines, {
        path: `/api/runs/${run.id}/attempts/1/checks/unit/log/lines?count=1`,
        params: { id: run.id, n: "1", checkId: "unit" },
        token,
        headers: etag ? { "if-none-match": etag } : {},
      });
    const page = await lines();
    expect(page.json.totalLines).toBe(50);
    expect((await lines(page.headers.get("etag")!)).status).toBe(304);

    // What 100 viewers polling once cost the server, answered in full and as 304s (printed, not asserted).
    for (const [label, etag] of [
      ["full", undefined],
      ["304", tag],
    ] as const) {
      const started = process.hrtime.bigint();
      const cpu = process.cpuUsage();
      await Promise.all(Array.from({ length: 100 }, () => ask(etag)));
      const used = process.cpuUsage(cpu);
      console.log(
        `100 polls of an unchanged run (${label}): ` +
          `${Number(process.hrtime.bigint() - started) / 1e6} ms wall, ` +
          `${(used.user + used.system) / 1000} ms CPU`,
      );
    }
  });
});
