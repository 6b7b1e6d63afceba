// Bounded concurrency with real processes: with GATEHOUSE_CONCURRENCY 2, two tasks' runs execute at the
// same time and a third waits queued (first come, first served) until one of them ends.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { dispatchTask } from "../services/runs";
import { loadRunDetail } from "../services/run-detail";
import { waitFor } from "../testing/processes";
import { check, createHarness, makeScenario, settle, type Harness } from "../testing/runner-harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ concurrency: 2 });
});
afterAll(async () => h.cleanup());

describe("bounded concurrency", () => {
  it("runs two tasks at once and queues the third until a slot frees", async () => {
    const journal = path.join(h.scratch, "journal");
    const releaseOf = (name: string) => path.join(h.scratch, `release-${name}`);
    // Each check notes when it starts, waits for its own release file, then notes that it ended.
    const holdingCheck = (name: string) =>
      check(
        "hold",
        `echo "start ${name}" >> '${journal}'; while [ ! -e '${releaseOf(name)}' ]; do sleep 0.05; ` +
          `done; echo "end ${name}" >> '${journal}'`,
      );
    const read = () => (fs.existsSync(journal) ? fs.readFileSync(journal, "utf8").split("\n").filter(Boolean) : []);

    const names = ["a", "b", "c"];
    const runs = [];
    for (const name of names) {
      const s = await makeScenario(h, { checkDefaults: [holdingCheck(name)] });
      runs.push(await dispatchTask(SYSTEM_ACTOR, s.task.id));
    }

    await waitFor(() => read().includes("start a") && read().includes("start b"), {
      what: "the first two runs to start their checks",
    });
    expect(h.executor.activeCount).toBe(2);
    const third = await loadRunDetail(SYSTEM_ACTOR, runs[2].id);
    expect(third.run.status).toBe("queued");
    expect(third.attempts.flatMap((a) => a.results)).toEqual([]);
    expect(read()).not.toContain("start c");

    // Ending one run frees a slot and the queued run starts.
    fs.writeFileSync(releaseOf("a"), "");
    await waitFor(() => read().includes("start c"), { what: "the queued run to start" });
    const journalNow = read();
    expect(journalNow.indexOf("end a")).toBeLessThan(journalNow.indexOf("start c"));

    fs.writeFileSync(releaseOf("b"), "");
    fs.writeFileSync(releaseOf("c"), "");
    const details = await Promise.all(runs.map((r) => settle(h, r.id)));
    expect(details.map((d) => d.run.ending)).toEqual(["accepted", "accepted", "accepted"]);

    // Never more than two checks were running at any moment.
    let running = 0;
    let most = 0;
    for (const line of read()) {
      running += line.startsWith("start ") ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(most).toBe(2);
  });

  it("gives a task dispatched twice at the same moment one run, and refuses the other dispatch as busy", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("ok", "true")] });
    const both = await Promise.allSettled([
      dispatchTask(SYSTEM_ACTOR, s.task.id),
      dispatchTask(SYSTEM_ACTOR, s.task.id),
    ]);
    const made = both.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const refused = both.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(made).toHaveLength(1);
    expect(refused).toEqual([expect.objectContaining({ code: "busy" })]);
    expect((await settle(h, made[0].id)).run.ending).toBe("accepted");
  });
});
