// Test counts through a real run: real `node --test` in real worktrees, the verdict and message they give,
// the gate, the brief the agent gets next, and the `tests` field of GET /api/runs/:id.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { createTokenWithPassword } from "../services/auth";
import { createUser } from "../services/users";
import { callRoute } from "../testing/call-route";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import * as runRoute from "../../app/api/runs/[id]/route";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  const email = "counts-admin@example.test";
  const password = "correct horse battery staple";
  await createUser(SYSTEM_ACTOR, { email, password, name: "Admin", admin: true });
  ({ token } = await createTokenWithPassword({ email, password, name: "counts test" }, "counts-test"));
});
afterAll(async () => h.cleanup());

const testCheck = (id: string, command: string, extra: Record<string, unknown> = {}) =>
  check(id, command, { kind: "test", ...extra });

const SLUG_TESTS = `const test = require("node:test");
const assert = require("node:assert/strict");
const slugify = (s) => s.trim().split(/\\s+/).join("-");
test("lower-cases the title", () => assert.equal(slugify("Hello"), "hello"));
test("joins words with dashes", () => assert.equal(slugify("a b"), "a-b"));
test("drops punctuation", () => assert.equal(slugify("a!"), "a"));
test.skip("handles emoji", () => {});
`;

describe("a test check that ran no test", () => {
  it("real `node --test` in a repository without tests exits 0 but is hollow, and the gate is red", async () => {
    const s = await makeScenario(
      h,
      { checkDefaults: [testCheck("unit", "node --test")] },
      { files: { "README.md": "no tests\n" } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const unit = detail.attempts[0].results[0];
    expect([unit.verdict, unit.exitCode, unit.message]).toEqual(["hollow", 0, "0 tests ran"]);
    expect(unit.tests).toEqual({ runner: "node:test", passed: 0, failed: 0, skipped: 0, total: 0 });
    expect(detail.attempts[0].gate).toBe("red");
    expect(detail.run.status).toBe("waiting");
  });

  it("a test file without a test() (node 20 counts the file itself as a test) is hollow too", async () => {
    const s = await makeScenario(
      h,
      { checkDefaults: [testCheck("unit", "node --test")] },
      { files: { "test/slug.test.js": "// the tests are still to be written\n" } },
    );
    const unit = (await dispatchAndSettle(h, s.task.id)).attempts[0].results[0];
    expect([unit.verdict, unit.message]).toEqual(["hollow", "0 tests ran"]);
  });

  it("the same output from a check of another kind passes (only test checks must run tests)", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("build", "node --test")] }, { files: { "a.txt": "a\n" } });
    const build = (await dispatchAndSettle(h, s.task.id)).attempts[0].results[0];
    expect([build.verdict, build.tests?.total]).toEqual(["passed", 0]);
  });

  it("the agent's next brief says 0 tests ran and what to do", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [testCheck("unit", "node --test")],
      agentCommand: `cat > "${h.scratch}/brief-$GATEHOUSE_ATTEMPT-$GATEHOUSE_RUN_ID.md"`,
      maxGateAttempts: 2,
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts.map((a) => a.gate)).toEqual(["red", "red"]);
    expect(detail.run.ending).toBe("partial");
    expect(detail.attempts[1].brief).toContain("### unit — unit passes: hollow (exit code 0)");
    expect(detail.attempts[1].brief).toContain("0 tests ran: the test command found no tests");
  });
});

describe("the summary against the exit code", () => {
  it("a script printing a vitest-like failing summary and exiting 0 is failed, naming the tests", async () => {
    const script = [
      "printf ' FAIL  test/slug.test.js > slug > lower-cases the title\\n'",
      "printf ' FAIL  test/slug.test.js > slug > trims spaces\\n\\n'",
      "printf ' Test Files  1 failed (1)\\n      Tests  2 failed | 3 passed (5)\\n'",
      "exit 0",
    ].join("; ");
    const s = await makeScenario(h, { checkDefaults: [check("patched", script)] });
    const detail = await dispatchAndSettle(h, s.task.id);
    const row = detail.attempts[0].results[0];
    expect([row.verdict, row.exitCode, row.message]).toEqual([
      "failed",
      0,
      "exit 0 but 2 tests failed: lower-cases the title, trims spaces",
    ]);
    expect(row.tests).toEqual({ runner: "vitest", passed: 3, failed: 2, skipped: 0, total: 5 });
    expect(detail.attempts[0].gate).toBe("red");
  });

  it("real failing node:test: the message names the failing tests instead of the trailer line", async () => {
    const s = await makeScenario(
      h,
      { checkDefaults: [testCheck("unit", "node --test test/")] },
      { files: { "test/slug.test.js": SLUG_TESTS } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const row = detail.attempts[0].results[0];
    expect([row.verdict, row.exitCode, row.message]).toEqual([
      "failed",
      1,
      "2 failed: lower-cases the title, drops punctuation",
    ]);
    expect(row.tests).toEqual({ runner: "node:test", passed: 1, failed: 2, skipped: 1, total: 4 });
    expect(row.logTail).toContain("# duration_ms");

    // GET /api/runs/:id carries the counts on attempts[].checks[].tests.
    const res = await callRoute(runRoute.GET, {
      path: `/api/runs/${detail.run.id}`,
      params: { id: detail.run.id },
      token,
    });
    expect(res.status).toBe(200);
    expect(res.json.attempts[0].checks[0].tests).toEqual({
      runner: "node:test",
      passed: 1,
      failed: 2,
      skipped: 1,
      total: 4,
    });
  });

  it("real passing node:test: the row has its counts and no message (not the trailer line)", async () => {
    const passing = "const { test } = require('node:test');\ntest('lower-cases', () => {});\n";
    const s = await makeScenario(
      h,
      { checkDefaults: [testCheck("unit", "node --test test/")] },
      { files: { "test/slug.test.js": passing } },
    );
    const row = (await dispatchAndSettle(h, s.task.id)).attempts[0].results[0];
    expect([row.verdict, row.message, row.tests?.passed]).toEqual(["passed", null, 1]);
    expect(row.logTail).toContain("# duration_ms");
  });

  it("a check with no recognised summary stores tests: null, and the API says so", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("plain", "echo all good")] });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].results[0]).toMatchObject({ verdict: "passed", message: "all good", tests: null });
    const res = await callRoute(runRoute.GET, {
      path: `/api/runs/${detail.run.id}`,
      params: { id: detail.run.id },
      token,
    });
    expect(res.json.attempts[0].checks[0]).toHaveProperty("tests", null);
  });
});
