import { describe, expect, it } from "vitest";
import {
  failsWithoutChangeRow,
  findSkipMarkers,
  isProofRow,
  parseNameStatus,
  protectedRow,
  provesChangeOf,
  testFilesToRestore,
  testsAddedRow,
  testsKeptRow,
  type FileChange,
  type Rerun,
} from "./proof";
import { DEFAULT_PROTECTED_PATHS, DEFAULT_TEST_PATTERNS } from "./work-schema";
import { RUN_STOPPED, isStoppedRow } from "./row-warning";

const m = (p: string): FileChange => ({ status: "M", path: p });
const a = (p: string): FileChange => ({ status: "A", path: p });
const d = (p: string): FileChange => ({ status: "D", path: p });
const pass = (checkId: string): Rerun => ({ checkId, verdict: "passed", exitCode: 0, message: null, tail: "ok\n" });
const fail = (checkId: string, tail = "AssertionError: expected 'hello'\n"): Rerun => ({
  checkId,
  verdict: "failed",
  exitCode: 1,
  message: "AssertionError: expected 'hello'",
  tail,
});

describe("parseNameStatus", () => {
  it("reads git's -z name-status output (modes other than A and D count as modified)", () => {
    expect(parseNameStatus("M\0src/a.js\0A\0test/a.test.js\0D\0old.py\0T\0link\0")).toEqual([
      m("src/a.js"),
      a("test/a.test.js"),
      d("old.py"),
      m("link"),
    ]);
    expect(parseNameStatus("")).toEqual([]);
  });
});

describe("testsAddedRow", () => {
  const patterns = [...DEFAULT_TEST_PATTERNS];
  it.each<[string, FileChange[], string, "passed" | "failed", string]>([
    [
      "a test added",
      [m("src/a.js"), a("src/a.test.js")],
      "warn",
      "passed",
      "The change touches 1 test file: src/a.test.js",
    ],
    ["a test changed", [m("tests/test_a.py")], "required", "passed", "The change touches 1 test file: tests/test_a.py"],
    [
      "no test",
      [m("src/a.js"), m("README.md")],
      "warn",
      "failed",
      "The change adds or changes no test: none of its files is a test file",
    ],
    [
      "only a test deleted",
      [d("src/a.test.js")],
      "warn",
      "failed",
      "The change adds or changes no test: none of its files is a test file",
    ],
    ["nothing changed", [], "required", "failed", "Nothing was changed, so no test was added"],
  ])("%s (%s)", (_what, changes, requireTests, verdict, message) => {
    const row = testsAddedRow({ changes, testPatterns: patterns, requireTests: requireTests as "warn" })!;
    expect(row).toMatchObject({
      checkId: "_tests-added",
      kind: "proof",
      verdict,
      message,
      required: requireTests === "required",
    });
  });

  it("off makes no row; a red row says what to do and which patterns count", () => {
    expect(testsAddedRow({ changes: [], testPatterns: patterns, requireTests: "off" })).toBeNull();
    const row = testsAddedRow({ changes: [m("src/a.js")], testPatterns: ["spec/**"], requireTests: "warn" })!;
    expect(row.details).toContain("  spec/**");
    expect(row.details).toContain("What to do: add or change a test");
  });

  it("names at most five files in its one line", () => {
    const changes = ["a", "b", "c", "d", "e", "f", "g"].map((x) => a(`t/${x}.test.js`));
    expect(testsAddedRow({ changes, testPatterns: patterns, requireTests: "warn" })!.message).toBe(
      "The change touches 7 test files: t/a.test.js, t/b.test.js, t/c.test.js, t/d.test.js, t/e.test.js and 2 more",
    );
  });
});

describe("protectedRow", () => {
  const protectedPaths = [...DEFAULT_PROTECTED_PATHS];
  const none = { hasGateFiles: true, edits: [], reruns: null };
  it.each<[string, FileChange[], "passed" | "failed", string]>([
    [
      "nothing of the gate's",
      [m("src/a.js"), a("src/a.test.js")],
      "passed",
      "The change leaves the gate's own files alone",
    ],
    [
      "a new conftest.py",
      [a("tests/conftest.py")],
      "failed",
      "The change edits the gate's own files: tests/conftest.py",
    ],
    [
      "runner configs",
      [m("jest.config.js"), m("vitest.config.ts"), a(".mocharc.yml"), m("pytest.ini")],
      "failed",
      "The change edits the gate's own files: jest.config.js, vitest.config.ts, .mocharc.yml, pytest.ini",
    ],
  ])("protectedPaths are a hard rule: %s", (_what, changes, verdict, message) => {
    expect(protectedRow({ changes, protectedPaths, ...none })).toMatchObject({
      checkId: "_protected",
      required: true,
      verdict,
      message,
    });
  });

  const edit = (labels: string[], checks: string[]) => ({ path: labels[0], parts: [null], labels, checks });
  const rerun = (checkId: string, verdict: string) => ({
    checkId,
    verdict,
    exitCode: verdict === "passed" ? 0 : 1,
    message: null,
    tail: null,
  });

  it("an edited gate file a check passes only with is red, naming the part", () => {
    const row = protectedRow({
      changes: [m("package.json")],
      protectedPaths: [],
      hasGateFiles: true,
      edits: [edit(["scripts.test in package.json"], ["unit"])],
      reruns: [rerun("unit", "failed")],
    })!;
    expect(row).toMatchObject({
      verdict: "failed",
      message: '"unit" passes only with its edited gate: scripts.test in package.json',
    });
    expect(row.details).toContain(
      "The rule: a file in the Work's protectedPaths is red whenever the change touches it",
    );
    expect(row.details).toContain('"unit" failed (exit code 1)');
  });

  it("an edited file the check passes with as it was too is the code under test: green with a note", () => {
    const row = protectedRow({
      changes: [m("src/price.js")],
      protectedPaths: [],
      hasGateFiles: true,
      edits: [edit(["src/price.js"], ["lint"])],
      reruns: [rerun("lint", "passed")],
    })!;
    expect(row).toMatchObject({
      verdict: "passed",
      message: 'src/price.js changed; check "lint" runs it and passes with the original too',
    });
  });

  it("a re-run the budget cut is skipped, not green", () => {
    const row = protectedRow({
      changes: [m("Makefile")],
      protectedPaths: [],
      hasGateFiles: true,
      edits: [edit(["Makefile (target test)"], ["unit"])],
      reruns: [{ ...rerun("unit", "skipped"), message: "the run's budget of 5s is spent" }],
    })!;
    expect(row).toMatchObject({ verdict: "skipped", required: true });
  });

  it("a protected path stays red even when every check passes with the originals", () => {
    const row = protectedRow({
      changes: [m("scripts/gate.sh")],
      protectedPaths: ["scripts/**"],
      hasGateFiles: true,
      edits: [edit(["scripts/gate.sh"], ["gate"])],
      reruns: [rerun("gate", "passed")],
    })!;
    expect(row.verdict).toBe("failed");
    expect(row.details).toContain("scripts/gate.sh (changed; protected)");
  });

  it("no row when nothing is protected and no check has a gate file", () => {
    expect(
      protectedRow({
        changes: [m("scripts/gate.sh")],
        protectedPaths: [],
        hasGateFiles: false,
        edits: [],
        reruns: null,
      }),
    ).toBeNull();
  });
});

describe("findSkipMarkers", () => {
  const diff = (file: string, ...added: string[]) =>
    `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1 +1,${added.length} @@\n-old\n` +
    `${added.map((l) => `+${l}`).join("\n")}\n`;
  it.each([
    ['it.skip("x", () => {})', "it.skip"],
    ['  test.skip("x")', "test.skip"],
    ['describe.skip("suite", () => {', "describe.skip"],
    ['xit("x", () => {})', "xit"],
    ['it.only("x")', ".only"],
    ['describe.only("x")', ".only"],
    ["@pytest.mark.skip(reason='later')", "@pytest.mark.skip"],
    ["@pytest.mark.skipif(True, reason='x')", "@pytest.mark.skip"],
    ['    pytest.skip("flaky")', "pytest.skip("],
    ['\tt.Skip("later")', "t.Skip("],
    ["#[ignore]", "#[ignore]"],
    ['"test": "jest --passWithNoTests"', "passWithNoTests"],
  ])("%s → %s", (line, marker) => {
    expect(findSkipMarkers(diff("src/a.test.js", line))).toEqual([
      { file: "src/a.test.js", marker, line: line.trim() },
    ]);
  });

  it("only added lines count, not removed ones, context or words that merely contain a marker", () => {
    const text =
      `${diff("a.test.js", 'it("runs", () => {})', "const exit = 1;", "skipit(1)")}--- a/b.js\n+++ ` +
      `b/b.js\n-it.skip("old")\n`;
    expect(findSkipMarkers(text)).toEqual([]);
  });

  it("an added line that begins with ++ is a line of the file, not a header that hides what follows", () => {
    const text = diff("src/a.test.js", '++i; it.skip("hidden")', "++ b/elsewhere.txt", 'test.skip("after")');
    expect(findSkipMarkers(text)).toEqual([
      { file: "src/a.test.js", marker: "it.skip", line: '++i; it.skip("hidden")' },
      { file: "src/a.test.js", marker: "test.skip", line: 'test.skip("after")' },
    ]);
  });

  it("a deleted file's lines are not added lines", () => {
    expect(findSkipMarkers("--- a/x.test.js\n+++ /dev/null\n@@ -1 +0,0 @@\n-it.skip('x')\n")).toEqual([]);
  });
});

describe("testFilesToRestore", () => {
  it("the test files the change modified or deleted, not those it added nor other files", () => {
    expect(
      testFilesToRestore(
        [m("src/a.test.js"), d("tests/test_b.py"), a("src/c.test.js"), m("src/a.js")],
        [...DEFAULT_TEST_PATTERNS],
      ),
    ).toEqual([m("src/a.test.js"), d("tests/test_b.py")]);
  });
});

describe("testsKeptRow", () => {
  it.each<[string, Parameters<typeof testsKeptRow>[0], "passed" | "failed" | null, string | null]>([
    [
      "no test file changed",
      { restored: [], markers: [], reruns: null, hasTestChecks: true },
      "passed",
      "No test file that was there was changed or deleted",
    ],
    [
      "no test check and nothing deleted or skipped: no row",
      { restored: [], markers: [], reruns: null, hasTestChecks: false },
      null,
      null,
    ],
    [
      "weakened: the old test fails",
      { restored: [m("t/a.test.js")], markers: [], reruns: [fail("unit")], hasTestChecks: true },
      "failed",
      'With the tests as they were, "unit" fails: the change weakened or removed tests',
    ],
    [
      "deleted and failing",
      { restored: [d("t/a.test.js")], markers: [], reruns: [fail("unit"), fail("e2e")], hasTestChecks: true },
      "failed",
      'With the tests as they were, "unit", "e2e" fail: the change weakened or removed tests (the ' +
        "change deleted t/a.test.js)",
    ],
    [
      "modified and still passing",
      { restored: [m("t/a.test.js"), m("t/b.test.js")], markers: [], reruns: [pass("unit")], hasTestChecks: true },
      "passed",
      "The 2 test files the change modified or deleted still pass as they were",
    ],
    [
      "a skip marker on a new test is named",
      {
        restored: [],
        markers: [{ file: "t/new.test.js", marker: "it.skip", line: 'it.skip("x")' }],
        reruns: null,
        hasTestChecks: true,
      },
      "passed",
      "No test file that was there was changed or deleted (the change added it.skip)",
    ],
    [
      "deleted tests and no test check to confirm",
      { restored: [d("t/a.test.js")], markers: [], reruns: null, hasTestChecks: false },
      "failed",
      "No test check could confirm the tests still pass (the change deleted t/a.test.js)",
    ],
  ])("%s", (_what, input, verdict, message) => {
    const row = testsKeptRow(input);
    if (verdict === null) expect(row).toBeNull();
    else expect(row).toMatchObject({ checkId: "_tests-kept", required: true, verdict, message });
  });

  it("a red row carries the failing check's last lines and what to do", () => {
    const row = testsKeptRow({
      restored: [m("t/a.test.js")],
      markers: [],
      reruns: [fail("unit", "not ok 1 - lower-cases the title\n")],
      hasTestChecks: true,
    })!;
    expect(row.details).toContain("t/a.test.js (modified)");
    expect(row.details).toContain("not ok 1 - lower-cases the title");
    expect(row.details).toContain("What to do: restore the tests you weakened");
  });
});

describe("failsWithoutChangeRow", () => {
  it("a start commit that holds an earlier run's fix is named as the reason, not the check", () => {
    const row = failsWithoutChangeRow({
      vacuousPolicy: "warn",
      reruns: [pass("accept")],
      laidOver: [],
      heldFix: { runNumber: 1, commit: "0123456789abcdef" },
    })!;
    expect(row.message).toBe("The start commit already passes: the task's branch held run #1's fix");
    expect(row.details).toContain("already contains 0123456789ab, on which run #1 of this task went green");
    expect(row.details).not.toContain("proves nothing");
  });

  it.each<[string, "off" | "warn" | "required", Rerun[], "passed" | "failed" | null, string | null]>([
    ["off: no row", "off", [pass("accept")], null, null],
    ["no check proves the change: no row", "required", [], null, null],
    [
      "passes without the change (required)",
      "required",
      [pass("accept")],
      "failed",
      '"accept" passes without the change too: it proves nothing',
    ],
    [
      "passes without the change (warn)",
      "warn",
      [pass("accept"), fail("unit")],
      "failed",
      '"accept" passes without the change too: it proves nothing',
    ],
    [
      "two vacuous checks",
      "warn",
      [pass("a"), pass("b")],
      "failed",
      '"a", "b" pass without the change too: they prove nothing',
    ],
    [
      "fails without the change",
      "required",
      [fail("accept")],
      "passed",
      'Without the change, "accept" fails: it tests the work',
    ],
    [
      "all fail",
      "warn",
      [fail("a"), fail("b")],
      "passed",
      "Without the change, all 2 checks that prove it fail: they test the work",
    ],
  ])("%s", (_what, vacuousPolicy, reruns, verdict, message) => {
    const row = failsWithoutChangeRow({ vacuousPolicy, reruns, laidOver: ["t/a.test.js"] });
    if (verdict === null) expect(row).toBeNull();
    else
      expect(row).toMatchObject({
        checkId: "_fails-without-change",
        required: vacuousPolicy === "required",
        verdict,
        message,
      });
  });
});

describe("provesChangeOf and isProofRow", () => {
  it("a check proves the change when it says so, otherwise when a task added it", () => {
    expect(provesChangeOf({ source: "added" })).toBe(true);
    expect(provesChangeOf({ source: "inherited" })).toBe(false);
    expect(provesChangeOf({ source: "overridden" })).toBe(false);
    expect(provesChangeOf({ source: "inherited", provesChange: true })).toBe(true);
    expect(provesChangeOf({ source: "added", provesChange: false })).toBe(false);
  });
  it("proof rows start with _", () => {
    expect(isProofRow({ checkId: "_tests-added" })).toBe(true);
    expect(isProofRow({ checkId: "unit" })).toBe(false);
  });
});

describe("re-runs cut short", () => {
  const spent: Rerun = {
    checkId: "unit",
    verdict: "skipped",
    exitCode: null,
    message: "the run's budget of 60s is spent",
    tail: null,
  };
  it("a row whose checks could not all run again is skipped, saying why (required rows then keep the gate red)", () => {
    expect(
      testsKeptRow({ restored: [m("t/a.test.js")], markers: [], reruns: [spent], hasTestChecks: true }),
    ).toMatchObject({
      verdict: "skipped",
      required: true,
      message: "Not run to the end: the run's budget of 60s is spent",
    });
    expect(failsWithoutChangeRow({ vacuousPolicy: "warn", reruns: [pass("a"), spent], laidOver: [] })).toMatchObject({
      verdict: "skipped",
      required: false,
      message: "Not run to the end: the run's budget of 60s is spent",
    });
  });

  it("a row whose re-runs a stop cut reads Stopped on the page; one the budget cut does not", () => {
    const stopped: Rerun = { ...spent, message: RUN_STOPPED };
    const rowOf = (rerun: Rerun) => {
      const row = testsKeptRow({ restored: [m("t/a.test.js")], markers: [], reruns: [rerun], hasTestChecks: true });
      if (!row) throw new Error("no _tests-kept row");
      return { checkId: row.checkId, verdict: row.verdict, message: row.message, durationMs: 900 };
    };
    expect(rowOf(stopped)).toMatchObject({ verdict: "skipped", message: "Not run to the end: the run was stopped" });
    expect([isStoppedRow(rowOf(stopped)), isStoppedRow(rowOf(spent))]).toEqual([true, false]);
  });
});
