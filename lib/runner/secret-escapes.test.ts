// A check that has a secret prints it split by escape sequences and control characters (colour resets,
// an OSC 8 hyperlink, cursor moves, a backspace, an escape cut across two writes, a reset between every
// character), so that what a viewer SHOWS joins the halves. Real processes, real git, real SQLite and
// the real routes: the value must show nowhere — the stored log, the tail (raw and as the viewer renders
// it), the message, the lines and search routes, GET /api/runs/:id and the brief the agent is handed.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAnsiLines } from "../ansi/parse-ansi";
import { SYSTEM_ACTOR } from "../auth/actor";
import { createTokenWithPassword } from "../services/auth";
import { setSecret } from "../services/secrets";
import { createUser } from "../services/users";
import { callRoute } from "../testing/call-route";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { maskShown } from "./attempt/context";
import { briefPathOf, checkLogPathOf } from "./paths";
import * as runRoute from "../../app/api/runs/[id]/route";
import * as logRoute from "../../app/api/runs/[id]/attempts/[n]/checks/[checkId]/log/route";
import * as linesRoute from "../../app/api/runs/[id]/attempts/[n]/checks/[checkId]/log/lines/route";
import * as searchRoute from "../../app/api/runs/[id]/attempts/[n]/checks/[checkId]/log/search/route";

const VALUE = "s3cr3t-value-42";

// What a viewer shows: escapes (as the log viewer parses them) and control characters removed.
function shown(text: string | null | undefined): string {
  return (text ?? "")
    .replace(/\x1b\[[0-9;:?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?/g, "")
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}
// The tail as the dashboard renders it: parsed into styled segments, their text joined.
function rendered(text: string | null | undefined): string {
  return parseAnsiLines(text ?? "")
    .map((segments) => segments.map((s) => s.text).join(""))
    .join("\n");
}
function expectHidden(text: string | null | undefined, what: string): void {
  for (const view of [text ?? "", shown(text), rendered(text), shown(rendered(text))])
    expect(view, `${what} shows the value`).not.toContain(VALUE);
}

// Each check prints the value (the secret API_KEY) split one way, then fails (so its tail is in the brief).
const SPLITS: Record<string, string> = {
  sgr: `printf 'key=%s\\033[0m%s\\n' "\${API_KEY:0:8}" "\${API_KEY:8}"`,
  several: `printf '\\033[32m%s\\033[0m\\033[1m%s\\033[22m%s\\n' "\${API_KEY:0:3}" "\${API_KEY:3:6}" "\${API_KEY:9}"`,
  "every-char": `for ((i = 0; i < \${#API_KEY}; i++)); do printf '%s\\033[0m' "\${API_KEY:i:1}"; done; echo`,
  osc8: `printf '%s\\033]8;;https://x.test/\\007%s\\033]8;;\\007\\n' "\${API_KEY:0:7}" "\${API_KEY:7}"`,
  "split-escape": `printf 'key=%s\\033[' "\${API_KEY:0:8}"; sleep 0.3; printf '0m%s\\n' "\${API_KEY:8}"`,
  cursor: `printf '%s\\033[1C\\033[1D\\033[K%s\\n' "\${API_KEY:0:4}" "\${API_KEY:4}"`,
  backspace: `printf '%sX\\b%s\\n' "\${API_KEY:0:10}" "\${API_KEY:10}"`,
  "carriage-return": `printf '%s\\r%s\\n' "\${API_KEY:0:9}" "\${API_KEY:9}"`,
};

let h: Harness;
let token: string;
let detail: Awaited<ReturnType<typeof dispatchAndSettle>>;

beforeAll(async () => {
  h = await createHarness();
  const email = "escapes-admin@example.test";
  const password = "correct horse battery staple";
  await createUser(SYSTEM_ACTOR, { email, password, name: "Admin", admin: true });
  ({ token } = await createTokenWithPassword({ email, password, name: "escapes test" }, "escapes-test"));
  const s = await makeScenario(h, {
    checkDefaults: Object.entries(SPLITS).map(([id, command]) =>
      check(id, `${command}; exit 1`, { envPassthrough: ["API_KEY"] }),
    ),
    agentCommand: "cat",
    maxGateAttempts: 2,
  });
  await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: VALUE });
  detail = await dispatchAndSettle(h, s.task.id);
});
afterAll(async () => h?.cleanup());

const route = (mod: { GET: unknown }, runId: string, n: number, checkId: string, suffix: string, query = "") =>
  callRoute(mod.GET as never, {
    path: `/api/runs/${runId}/attempts/${n}/checks/${checkId}/log${suffix}${query}`,
    params: { id: runId, n: String(n), checkId },
    token,
  });

describe("a secret split by escape sequences", () => {
  it("every check ran (and failed on purpose), twice", () => {
    expect(detail.attempts).toHaveLength(2);
    for (const a of detail.attempts)
      expect(a.results.map((r) => r.verdict)).toEqual(Object.keys(SPLITS).map(() => "failed"));
  });

  it("the stored log shows *** where the value was, and never the value", () => {
    for (const id of Object.keys(SPLITS)) {
      const log = fs.readFileSync(checkLogPathOf(h.dataDir, detail.run.id, 1, id), "utf8");
      expect(shown(log), id).toContain("***");
      expectHidden(log, `log of ${id}`);
    }
  });

  it("the tail (raw and rendered) and the message of each result", () => {
    for (const r of detail.attempts[0].results) {
      expect(shown(r.logTail), r.checkId).toContain("***");
      expectHidden(r.logTail, `tail of ${r.checkId}`);
      expectHidden(r.message, `message of ${r.checkId}`);
      expect(r.message, r.checkId).toContain("***");
    }
  });

  it("the full-log, lines and search routes", async () => {
    for (const id of Object.keys(SPLITS)) {
      const full = await route(logRoute, detail.run.id, 1, id, "");
      expect(full.status).toBe(200);
      expectHidden(full.text, `log route of ${id}`);
      const lines = await route(linesRoute, detail.run.id, 1, id, "/lines", "?from=1&count=100");
      expect(lines.status, lines.text).toBe(200);
      expect(lines.text).toContain("***");
      expectHidden(
        JSON.parse(lines.text)
          .lines?.map((l: { text: string }) => l.text)
          .join("\n"),
        `lines of ${id}`,
      );
      expectHidden(lines.text, `lines route of ${id}`);
      for (const q of [VALUE, VALUE.slice(0, 8), VALUE.slice(8)]) {
        const found = await route(searchRoute, detail.run.id, 1, id, "/search", `?q=${encodeURIComponent(q)}`);
        expect(found.status).toBe(200);
        expect(JSON.parse(found.text).total, `search of ${id} for ${q}`).toBe(0);
      }
    }
  });

  it("GET /api/runs/:id and the brief of the second attempt (stored and on disk)", async () => {
    const res = await callRoute(runRoute.GET, {
      path: `/api/runs/${detail.run.id}`,
      params: { id: detail.run.id },
      token,
    });
    expect(res.status).toBe(200);
    expectHidden(res.text, "GET /api/runs/:id");
    const brief = detail.attempts[1].brief ?? "";
    expect(brief).toContain("## What failed in attempt 1");
    expect(shown(brief)).toContain("***");
    expectHidden(brief, "brief");
    expectHidden(fs.readFileSync(briefPathOf(h.dataDir, detail.run.id, 2), "utf8"), "brief on disk");
    expectHidden(detail.attempts[1].agentLogTail, "the agent's output (it printed the brief)");
  });
});

describe("the second lock: results are masked again as shown", () => {
  it("with a masker blind to escapes, a message or tail whose escapes split the value is kept \
stripped and masked", () => {
    // Matches plain text only, as the masker did before it read through escapes.
    const blind = {
      push: (c: Buffer) => c,
      end: () => Buffer.alloc(0),
      maskText: (t: string) => t.split(VALUE).join("***"),
    };
    expect(maskShown(blind, `key=${VALUE.slice(0, 8)}\x1b[0m${VALUE.slice(8)}`)).toBe("key=***");
    expect(maskShown(blind, "\x1b[32mall good\x1b[0m")).toBe("\x1b[32mall good\x1b[0m");
    expect(maskShown(blind, null)).toBe(null);
  });
});
