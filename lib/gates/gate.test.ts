import { describe, expect, it } from "vitest";
import {
  GATES,
  VERDICTS,
  computeGate,
  endedGate,
  gateOfStoppedAttempt,
  gateShown,
  countRequiredPassed,
  decideVerdict,
  isBlockingVerdict,
  isFinishedVerdict,
  isNothingRequired,
  type Gate,
  type Verdict,
  type VerdictInput,
  type VerdictOfCheck,
} from "./gate";

const req = (verdict: Verdict): VerdictOfCheck => ({ required: true, verdict });
const opt = (verdict: Verdict): VerdictOfCheck => ({ required: false, verdict });

describe("constants", () => {
  it("list the SPEC's verdicts and gates", () => {
    expect([...VERDICTS].sort()).toEqual([
      "error",
      "failed",
      "hollow",
      "passed",
      "queued",
      "running",
      "skipped",
      "timeout",
    ]);
    expect([...GATES].sort()).toEqual(["green", "off", "pending", "red", "running", "stopped"]);
  });
});

describe("isFinishedVerdict / isBlockingVerdict", () => {
  it.each<[Verdict, boolean, boolean]>([
    ["queued", false, false],
    ["running", false, false],
    ["passed", true, false],
    ["failed", true, true],
    ["hollow", true, true],
    ["timeout", true, true],
    ["error", true, true],
    ["skipped", true, false],
  ])("%s: finished %s, blocking %s", (verdict, finished, blocking) => {
    expect(isFinishedVerdict(verdict)).toBe(finished);
    expect(isBlockingVerdict(verdict)).toBe(blocking);
  });
});

describe("computeGate", () => {
  describe("policy off", () => {
    it.each<[string, VerdictOfCheck[]]>([
      ["no checks", []],
      ["a failed required check", [req("failed")]],
      ["a passed required check", [req("passed")]],
      ["checks still queued", [req("queued"), opt("queued")]],
      ["a running check", [req("running")]],
      ["skipped checks (policy off skips them)", [req("skipped"), opt("skipped")]],
    ])("is off with %s", (_label, results) => {
      expect(computeGate("off", results)).toBe("off");
    });
  });

  describe.each(["warn", "required"] as const)(
    "policy %s (the gate itself is the same; the policy decides what red does)",
    (policy) => {
      it.each<[string, VerdictOfCheck[], Gate]>([
        // Before the gate is decided.
        ["every check queued", [req("queued"), opt("queued")], "pending"],
        ["a single queued check", [req("queued")], "pending"],
        ["a required check running", [req("running"), req("queued")], "running"],
        ["a non-required check running first", [opt("running"), req("queued")], "running"],
        ["one finished, the next still queued", [req("passed"), req("queued")], "running"],
        ["one failed, the next still queued", [req("failed"), req("queued")], "running"],
        ["every check running", [req("running"), opt("running")], "running"],

        // Green: every required check passed.
        ["one required check passed", [req("passed")], "green"],
        ["every required check passed", [req("passed"), req("passed"), req("passed")], "green"],
        ["no checks at all (green by default only)", [], "green"],

        // Red: any required check failed, timed out or errored.
        ["a required check failed", [req("passed"), req("failed")], "red"],
        ["a required check timed out", [req("timeout"), req("passed")], "red"],
        ["a required check errored", [req("passed"), req("error")], "red"],
        ["a required test check ran no test (hollow)", [req("passed"), req("hollow")], "red"],
        ["every required check failed", [req("failed"), req("failed")], "red"],
        ["a failure followed by failFast skips", [req("failed"), req("skipped"), opt("skipped")], "red"],
        ["a timeout followed by failFast skips", [req("timeout"), req("skipped")], "red"],
        ["a required check skipped is not a pass", [req("passed"), req("skipped")], "red"],
        ["the only required check skipped", [req("skipped")], "red"],

        // Non-required checks never change the gate.
        ["a non-required check failed", [req("passed"), opt("failed")], "green"],
        ["a non-required check timed out", [req("passed"), opt("timeout")], "green"],
        ["a non-required check errored", [req("passed"), opt("error")], "green"],
        ["a non-required check skipped", [req("passed"), opt("skipped")], "green"],
        ["only non-required checks, all failing", [opt("failed"), opt("timeout"), opt("error")], "green"],
        [
          "non-required passes do not save a failed required check",
          [req("failed"), opt("passed"), opt("passed")],
          "red",
        ],
      ])("%s → %s", (_label, results, gate) => {
        expect(computeGate(policy, results)).toBe(gate);
      });
    },
  );

  it("never depends on the order of finished results", () => {
    const results = [req("passed"), opt("failed"), req("timeout"), opt("passed")];
    const reversed = [...results].reverse();
    expect(computeGate("required", results)).toBe("red");
    expect(computeGate("required", reversed)).toBe("red");
  });

  it("flipping a non-required check between passed and failed never changes a finished gate", () => {
    for (const requiredVerdict of ["passed", "failed", "timeout", "error"] as const) {
      const a = computeGate("required", [req(requiredVerdict), opt("passed")]);
      const b = computeGate("required", [req(requiredVerdict), opt("failed")]);
      expect(a).toBe(b);
    }
  });
});

describe("isNothingRequired", () => {
  it.each<[string, { required: boolean }[], boolean]>([
    ["no checks", [], true],
    ["only non-required checks", [{ required: false }, { required: false }], true],
    ["one required check", [{ required: true }], false],
    ["a required check among others", [{ required: false }, { required: true }], false],
  ])("%s → %s", (_label, checks, expected) => {
    expect(isNothingRequired(checks)).toBe(expected);
  });
});

describe("countRequiredPassed", () => {
  it.each<[string, VerdictOfCheck[], number]>([
    ["no checks", [], 0],
    ["only non-required passes", [opt("passed"), opt("passed")], 0],
    ["required passes", [req("passed"), req("passed"), opt("passed")], 2],
    [
      "failures, hollow checks, timeouts, errors, skips do not count (the best attempt of a partial run)",
      [req("failed"), req("hollow"), req("timeout"), req("error"), req("skipped"), req("passed")],
      1,
    ],
    ["unfinished checks do not count", [req("queued"), req("running")], 0],
  ])("%s → %d", (_label, results, expected) => {
    expect(countRequiredPassed(results)).toBe(expected);
  });
});

describe("decideVerdict", () => {
  const run = (over: Partial<VerdictInput>): VerdictInput => ({
    timedOut: false,
    exitCode: 0,
    stdoutFound: false,
    ...over,
  });

  it.each<[string, Partial<VerdictInput>, "passed" | "failed" | "timeout"]>([
    // Timeout wins over everything else.
    ["timed out with exit 0", { timedOut: true, exitCode: 0 }, "timeout"],
    ["timed out, killed (no exit code)", { timedOut: true, exitCode: null }, "timeout"],
    [
      "timed out although expectExit and expectStdout match",
      { timedOut: true, exitCode: 3, expectExit: 3, expectStdout: "ok", stdoutFound: true },
      "timeout",
    ],

    // Exit code against expectExit (default 0).
    ["exit 0, default expectExit", { exitCode: 0 }, "passed"],
    ["exit 1, default expectExit", { exitCode: 1 }, "failed"],
    ["exit 255, default expectExit", { exitCode: 255 }, "failed"],
    ["exit 0, explicit expectExit 0", { exitCode: 0, expectExit: 0 }, "passed"],
    ["exit 1, expectExit 1 (a gate that must fail)", { exitCode: 1, expectExit: 1 }, "passed"],
    ["exit 0, expectExit 1", { exitCode: 0, expectExit: 1 }, "failed"],
    ["exit 2, expectExit 1", { exitCode: 2, expectExit: 1 }, "failed"],
    ["exit 255, expectExit 255", { exitCode: 255, expectExit: 255 }, "passed"],

    // No exit code (ended by a signal) never passes.
    ["no exit code", { exitCode: null }, "failed"],
    ["no exit code, expectExit 0", { exitCode: null, expectExit: 0 }, "failed"],
    ["no exit code, stdout found", { exitCode: null, expectStdout: "ok", stdoutFound: true }, "failed"],

    // expectStdout must be found when set.
    ["expectStdout found", { exitCode: 0, expectStdout: "All good", stdoutFound: true }, "passed"],
    ["expectStdout not found", { exitCode: 0, expectStdout: "All good", stdoutFound: false }, "failed"],
    ["expectStdout found but wrong exit", { exitCode: 1, expectStdout: "All good", stdoutFound: true }, "failed"],
    [
      "expectStdout found with matching expectExit",
      { exitCode: 1, expectExit: 1, expectStdout: "0 TODO", stdoutFound: true },
      "passed",
    ],
    [
      "expectStdout not found with matching expectExit",
      { exitCode: 1, expectExit: 1, expectStdout: "0 TODO", stdoutFound: false },
      "failed",
    ],
    ["no expectStdout: stdoutFound is irrelevant", { exitCode: 0, stdoutFound: false }, "passed"],
  ])("%s → %s", (_label, over, expected) => {
    expect(decideVerdict(run(over))).toBe(expected);
  });
});

describe("gateShown: an inconclusive run's chip says inconclusive", () => {
  it.each([
    ["green", "inconclusive", "inconclusive"],
    ["pending", "inconclusive", "inconclusive"],
    ["red", "inconclusive", "inconclusive"],
    ["green", "accepted", "green"],
    ["red", "partial", "red"],
    ["running", null, "running"],
  ] as const)("gate %s, ending %s → %s", (gate, ending, shown) => expect(gateShown(gate, ending)).toBe(shown));
});

describe("gateOfStoppedAttempt: the gate of an attempt cut short (a cancel) is never pending", () => {
  it.each<[string, VerdictOfCheck[], Gate]>([
    ["a required check failed before the stop", [req("failed"), req("skipped")], "red"],
    ["a required check timed out before the stop", [req("passed"), req("timeout"), req("skipped")], "red"],
    ["a required check errored before the stop", [req("error"), opt("skipped")], "red"],
    ["the stop cut the only required check short", [req("skipped")], "stopped"],
    ["required checks passed, the stop came before the last", [req("passed"), req("skipped")], "stopped"],
    ["only a reports-only check failed", [opt("failed"), req("skipped")], "stopped"],
    ["stopped before any check", [], "stopped"],
  ])("%s → %s", (_label, results, gate) => expect(gateOfStoppedAttempt(results)).toBe(gate));
});

describe("endedGate: what an ended run or attempt keeps", () => {
  it.each<[Gate, Gate]>([
    ["pending", "stopped"],
    ["running", "stopped"],
    ["red", "red"],
    ["green", "green"],
    ["off", "off"],
    ["stopped", "stopped"],
  ])("%s → %s", (gate, kept) => expect(endedGate(gate)).toBe(kept));
});
