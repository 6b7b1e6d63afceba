// Per-test results through a real run: a real `node --test` suite writing JUnit XML in a real worktree, the
// verdict, counts and message the report gives (over what the output says), the failed tests on the row and
// in GET /api/runs/:id, the warnings of a test check that shows no sign of running, and the brief after it.
// Reading the reports never follows a symlink out of the checkout (a real symlink below).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runRoute from "../../app/api/runs/[id]/route";
import * as worksRoute from "../../app/api/works/route";
import * as statsRoute from "../../app/api/works/[id]/checks/stats/route";
import { SYSTEM_ACTOR } from "../auth/actor";
import { NO_TEST_SUMMARY } from "../gates/junit";
import { createTokenWithPassword } from "../services/auth";
import { readCheckHistory } from "../services/check-history";
import { loadRunDetail } from "../services/run-detail";
import { createUser, setMemberRole } from "../services/users";
import { callRoute } from "../testing/call-route";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { startNextAttempt } from "../services/runs";
import { settle } from "../testing/runner-harness";
import { findReportFiles, readJunitReports, readReportFile } from "./junit-reports";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  const email = "junit-admin@example.test";
  const password = "correct horse battery staple";
  await createUser(SYSTEM_ACTOR, { email, password, name: "Admin", admin: true });
  ({ token } = await createTokenWithPassword({ email, password, name: "junit test" }, "junit-test"));
});
afterAll(async () => h.cleanup());

const SLUG_TESTS = `const test = require("node:test");
const assert = require("node:assert/strict");
test("lower-cases the title", () => assert.equal("Hello", "hello"));
test("trims spaces", () => assert.equal("  a ".trim(), "a"));
test("joins words with dashes", () => assert.equal("a b".split(" ").join("-"), "a-b"));
test.skip("handles emoji", () => {});
`;
const JUNIT_RUN =
  "mkdir -p reports && node --test --test-reporter=junit --test-reporter-destination=reports/junit.xml test/";
const unitCheck = (command: string, extra: Record<string, unknown> = {}) =>
  check("unit", command, { kind: "test", junit: "reports/*.xml", ...extra });

describe("a check that declares junit", () => {
  it("takes its counts, failing names and per-test results from the report node:test wrote", async () => {
    const s = await makeScenario(
      h,
      { checkDefaults: [unitCheck(JUNIT_RUN)] },
      { files: { "test/slug.test.js": SLUG_TESTS } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const row = detail.attempts[0].results[0];
    expect([row.verdict, row.exitCode, row.message]).toEqual(["failed", 1, "1 failed: lower-cases the title"]);
    expect(row.tests).toEqual({ runner: "junit", passed: 2, failed: 1, skipped: 1, total: 4 });
    expect(row.testCases?.map((t) => `${t.status} ${t.name}`)).toEqual([
      "failed lower-cases the title",
      "passed trims spaces",
      "passed joins words with dashes",
      "skipped handles emoji",
    ]);
    expect(row.testCases?.[0].message).toMatch(/^Expected values to be strictly equal/);
    expect(row.warning).toBeNull();

    const res = await callRoute(runRoute.GET, {
      path: `/api/runs/${detail.run.id}`,
      params: { id: detail.run.id },
      token,
    });
    const shown = res.json.attempts[0].checks[0];
    expect(shown.failedTests).toHaveLength(1);
    expect(shown.failedTests[0]).toMatchObject({ name: "lower-cases the title", status: "failed" });
    expect(shown.failedTests[0].trace).toContain("'Hello'");
    expect(shown.warning).toBeNull();
  });

  it("a reporter that swallows the exit code: exit 0 but the report's failure fails the check, naming it", async () => {
    // The output says nothing a recogniser reads (the junit reporter writes only the file); the report speaks.
    const s = await makeScenario(
      h,
      { checkDefaults: [unitCheck(`${JUNIT_RUN} || true`)] },
      { files: { "test/slug.test.js": SLUG_TESTS } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const row = detail.attempts[0].results[0];
    expect([row.verdict, row.exitCode, row.message]).toEqual([
      "failed",
      0,
      "exit 0 but 1 test failed: lower-cases the title",
    ]);
    expect(detail.attempts[0].gate).toBe("red");
  });

  it("the report wins over a summary printed to the output", async () => {
    const fake = "printf ' Test Files  1 passed (1)\\n      Tests  9 passed (9)\\n'";
    const s = await makeScenario(
      h,
      { checkDefaults: [unitCheck(`${JUNIT_RUN} || true; ${fake}`)] },
      { files: { "test/slug.test.js": SLUG_TESTS } },
    );
    const row = (await dispatchAndSettle(h, s.task.id)).attempts[0].results[0];
    expect(row.tests).toMatchObject({ runner: "junit", failed: 1, total: 4 });
    expect(row.verdict).toBe("failed");
  });

  it("a report older than the check's run (a leftover) is not read, and the row says so", async () => {
    // The leftover of an earlier run: the file's time is set two minutes back, as a report left there has.
    const leftover = [
      "mkdir -p reports",
      `printf '<testsuites><testcase name="always passes"/></testsuites>' > reports/junit.xml`,
      "touch -d '2 minutes ago' reports/junit.xml",
      "echo 'make: test is up to date.'",
    ].join(" && ");
    const s = await makeScenario(h, { checkDefaults: [unitCheck(leftover)] });
    const row = (await dispatchAndSettle(h, s.task.id)).attempts[0].results[0];
    expect(row.verdict).toBe("passed");
    expect(row.testCases).toBeNull();
    expect(row.warning).toContain(NO_TEST_SUMMARY);
    expect(row.warning).toContain("not written by this run of the check");
  });

  it("a report dated in the future (planted to look written by this run) is not read either", async () => {
    const planted = [
      "mkdir -p reports",
      `printf '<testsuites><testcase name="always passes"/></testsuites>' > reports/junit.xml`,
      "touch -d '1 hour' reports/junit.xml",
    ].join(" && ");
    const s = await makeScenario(h, { checkDefaults: [unitCheck(planted)] });
    const row = (await dispatchAndSettle(h, s.task.id)).attempts[0].results[0];
    expect(row.testCases).toBeNull();
    expect(row.warning).toContain("dated later than it ended");
  });
});

describe("flaky tests", () => {
  it("a test that failed and then passed on the same commit is flagged flaky, the others are not", async () => {
    const counter = path.join(h.scratch, "flaky-counter");
    const suite = `const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const runs = fs.existsSync(${JSON.stringify(counter)}) ? 1 : 0;
fs.writeFileSync(${JSON.stringify(counter)}, "ran");
test("sometimes fails", () => assert.equal(runs, 1));
test("always passes", () => assert.ok(true));
test("always fails", () => assert.ok(false));
`;
    const s = await makeScenario(
      h,
      { checkDefaults: [unitCheck(JUNIT_RUN)] },
      // The reports folder is ignored, as it should be: otherwise every later attempt runs on uncommitted changes.
      { files: { "test/slug.test.js": suite, ".gitignore": "reports/\n" } },
    );
    const first = await dispatchAndSettle(h, s.task.id);
    expect(first.attempts[0].results[0].message).toBe("2 failed: sometimes fails, always fails");
    await startNextAttempt(SYSTEM_ACTOR, first.run.id);
    const second = await settle(h, first.run.id);
    const row = second.attempts[1].results[0];
    expect(row.message).toBe("1 failed: always fails");
    expect(row.testCases?.map((t) => [t.name, t.status, t.flaky ?? false])).toEqual([
      ["sometimes fails", "passed", true],
      ["always passes", "passed", false],
      ["always fails", "failed", false],
    ]);
    const res = await callRoute(runRoute.GET, {
      path: `/api/runs/${first.run.id}`,
      params: { id: first.run.id },
      token,
    });
    expect(res.json.attempts[1].checks[0].flakyTests).toEqual(["test › sometimes fails"]);

    // The check history: per-test pass rates over the check's results with JUnit reports, worst first.
    const stats = await callRoute(statsRoute.GET, {
      path: `/api/works/${s.work.id}/checks/stats`,
      params: { id: s.work.id },
      token,
    });
    expect(stats.status).toBe(200);
    const unit = (stats.json.checks as unknown as { checkId: string; tests: unknown }[]).find(
      (c) => c.checkId === "unit",
    );
    expect(unit?.tests).toEqual({
      results: 2,
      tests: 3,
      unsteady: [
        { key: "test › always fails", name: "always fails", runs: 2, passed: 0, passRate: 0, flaky: 0 },
        { key: "test › sometimes fails", name: "sometimes fails", runs: 2, passed: 1, passRate: 0.5, flaky: 1 },
      ],
    });
  });
});

describe("the junit field through the API", () => {
  it("a glob leaving the checkout is refused with its field path, and nothing is saved", async () => {
    const name = `junit api ${Date.now()}`;
    const res = await callRoute(worksRoute.POST, {
      path: "/api/works",
      method: "POST",
      token,
      body: {
        name,
        repoUrl: "/tmp/none",
        checkDefaults: [
          { id: "a", name: "A", kind: "test", command: "true", required: true, junit: "reports/*.xml" },
          { id: "b", name: "B", kind: "test", command: "true", required: true, junit: "/abs/*.xml" },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.issues).toEqual([
      { path: "checkDefaults.1.junit", message: "must be relative to the checkout root, not absolute" },
    ]);
    const list = await callRoute(worksRoute.GET, { path: "/api/works", token });
    expect(JSON.stringify(list.json)).not.toContain(name);
  });
});

describe("a held-out check's tests", () => {
  it("a viewer sees neither its failed tests on the row nor its per-test pass rates; a lead does", async () => {
    const s = await makeScenario(
      h,
      { checkDefaults: [unitCheck(JUNIT_RUN, { hidden: true })] },
      { files: { "test/slug.test.js": SLUG_TESTS } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const viewer = await createUser(SYSTEM_ACTOR, {
      email: `viewer-${s.work.id}@example.test`,
      password: "correct horse battery staple",
    });
    await setMemberRole(SYSTEM_ACTOR, s.work.id, viewer.id, { role: "viewer" });
    const asViewer = { ...SYSTEM_ACTOR, userId: viewer.id, isAdmin: false, via: "session" as const, label: "viewer" };
    const row = (await loadRunDetail(asViewer, detail.run.id)).attempts[0].results[0];
    expect([row.verdict, row.testCases, row.warning, row.message]).toEqual(["failed", null, null, null]);
    expect(detail.attempts[0].results[0].testCases).toHaveLength(4);
    const seen = (await readCheckHistory(asViewer, s.work.id)).find((c) => c.checkId === "unit");
    expect([seen?.runs, seen?.tests]).toEqual([1, null]);
    const lead = (await readCheckHistory(SYSTEM_ACTOR, s.work.id)).find((c) => c.checkId === "unit");
    expect(lead?.tests?.unsteady.map((t) => t.name)).toEqual(["lower-cases the title"]);
  });
});

describe("no sign that any test ran (issue 21, item 6)", () => {
  it("a passing test check with no summary and no junit warns on the row, and the next brief says it", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [check("unit", "echo \"make: 'test' is up to date.\"", { kind: "test" }), check("lint", "exit 1")],
      agentCommand: "true",
      maxGateAttempts: 2,
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    const unit = detail.attempts[0].results.find((r) => r.checkId === "unit")!;
    expect([unit.verdict, unit.warning]).toEqual(["passed", NO_TEST_SUMMARY]);
    expect(detail.attempts[1].brief).toContain(`## Warnings from attempt 1`);
    expect(detail.attempts[1].brief).toContain(`- unit — unit passes: ${NO_TEST_SUMMARY}`);
  });

  it("under the Work's requireTestSummary the same check is hollow, and a run whose tests ran stays green", async () => {
    const upToDate = check("unit", "echo \"make: 'test' is up to date.\"", { kind: "test" });
    const s = await makeScenario(h, { checkDefaults: [upToDate], maxGateAttempts: 1, requireTestSummary: true });
    const detail = await dispatchAndSettle(h, s.task.id);
    const unit = detail.attempts[0].results.find((r) => r.checkId === "unit")!;
    expect([unit.verdict, unit.message, unit.warning]).toEqual(["hollow", NO_TEST_SUMMARY, null]);
    expect(detail.run.gate).toBe("red");
    // The run froze the setting: switching it off afterwards does not change how this run is judged.
    expect(detail.run.proof?.requireTestSummary).toBe(true);

    const ran = await makeScenario(
      h,
      { checkDefaults: [check("unit", "node --test test/", { kind: "test" })], requireTestSummary: true },
      { files: { "test/a.test.js": "require('node:test')('a', () => {});\n" } },
    );
    const rows = (await dispatchAndSettle(h, ran.task.id)).attempts[0].results;
    expect(rows.find((r) => r.checkId === "unit")).toMatchObject({ verdict: "passed", warning: null });
  });

  it("a check of another kind, or one whose runner printed a summary, does not warn", async () => {
    const s = await makeScenario(
      h,
      { checkDefaults: [check("build", "echo built"), check("unit", "node --test test/", { kind: "test" })] },
      { files: { "test/a.test.js": "require('node:test')('a', () => {});\n" } },
    );
    const rows = (await dispatchAndSettle(h, s.task.id)).attempts[0].results;
    expect(rows.filter((r) => r.kind !== "proof").map((r) => [r.checkId, r.verdict, r.warning])).toEqual([
      ["build", "passed", null],
      ["unit", "passed", null],
    ]);
  });

  it("the failed tests of a JUnit report reach the next brief with their messages", async () => {
    const s = await makeScenario(
      h,
      { checkDefaults: [unitCheck(JUNIT_RUN)], agentCommand: "true", maxGateAttempts: 2 },
      { files: { "test/slug.test.js": SLUG_TESTS } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[1].brief).toContain("Failed tests (from its JUnit report):");
    expect(detail.attempts[1].brief).toMatch(/- test › lower-cases the title: Expected values to be strictly equal/);
  });
});

describe("reading reports out of the checkout", () => {
  let root: string;
  let outside: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-junit-checkout-"));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-junit-outside-"));
    fs.writeFileSync(path.join(outside, "secret.xml"), `<testsuites><testcase name="from outside"/></testsuites>`);
    fs.mkdirSync(path.join(root, "reports"));
    fs.writeFileSync(path.join(root, "reports", "own.xml"), `<testsuites><testcase name="own"/></testsuites>`);
    fs.symlinkSync(path.join(outside, "secret.xml"), path.join(root, "reports", "link.xml"));
    fs.symlinkSync(outside, path.join(root, "linked-dir"));
  });
  afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("never reads a symlink, at the end of the path or on the way", () => {
    expect(readReportFile(root, "reports/link.xml", 1 << 20)).toEqual({
      problem:
        "reports/link.xml is a symbolic link: Gatehouse does not follow links in the checkout (one " +
        "could lead out of it): not read",
    });
    expect(readReportFile(root, "linked-dir/secret.xml", 1 << 20)).toMatchObject({
      problem: expect.stringMatching(/^linked-dir is a symbolic link: .*: not read$/),
    });
    expect(readReportFile(root, "../x.xml", 1 << 20)).toMatchObject({
      problem: expect.stringMatching(/\.\..*not read$/),
    });
    expect(readReportFile(root, "reports/own.xml", 1 << 20)).toMatchObject({ text: expect.stringContaining("own") });
  });

  it("the walk does not enter a symlinked folder and names a symlinked report", () => {
    expect(findReportFiles(root, "**/*.xml")).toEqual({
      files: ["reports/own.xml"],
      symlinks: ["reports/link.xml"],
      problem: null,
    });
    expect(findReportFiles(root, "linked-dir/*.xml")).toEqual({ files: [], symlinks: [], problem: null });
    const read = readJunitReports({ checkoutDir: root, glob: "**/*.xml", sinceMs: 0 });
    expect(read.cases.map((c) => c.name)).toEqual(["own"]);
    expect(read.problems).toEqual(["reports/link.xml is a symlink: not read"]);
  });

  // The checkout's own folder swapped for a link by the run-as user (the folder above it is that user's): the
  // walk lists nothing where it leads, not even the names of links there.
  it.runIf(process.getuid?.() === 0)("a checkout whose own folder the run-as user made a link is not listed", () => {
    const users = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-junit-users-"));
    const hidden = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-junit-hidden-"));
    try {
      fs.mkdirSync(path.join(hidden, "reports"));
      fs.symlinkSync("/nowhere", path.join(hidden, "reports", "customer-acme-layoffs.xml"));
      fs.chownSync(users, 65534, 65534);
      fs.symlinkSync(hidden, path.join(users, "checkout"));
      fs.lchownSync(path.join(users, "checkout"), 65534, 65534);
      const read = readJunitReports({ checkoutDir: path.join(users, "checkout"), glob: "**/*.xml", sinceMs: 0 });
      expect(read.cases).toEqual([]);
      expect(JSON.stringify(read.problems)).not.toContain("acme");
    } finally {
      fs.rmSync(users, { recursive: true, force: true });
      fs.rmSync(hidden, { recursive: true, force: true });
    }
  });

  it("a report over the size cap is not read, without reading it", () => {
    const big = path.join(root, "reports", "big.xml");
    fs.writeFileSync(big, "");
    fs.truncateSync(big, 17 * 1024 * 1024);
    try {
      expect(readReportFile(root, "reports/big.xml", 16 * 1024 * 1024)).toEqual({
        problem: "reports/big.xml is 17825792 bytes, at most 16777216 are read: not read",
      });
    } finally {
      fs.rmSync(big);
    }
  });
});
