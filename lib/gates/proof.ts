// Proof rows (SPEC Part 2, "Proof rows"): rows no command of the Work defines, made after the check step
// of every attempt, that say whether a green gate means something. Pure rules: the runner gathers the
// change (files and added lines) and runs the checks again where a row needs it; these decide the rows.
import type { GateEdit } from "./gate-files";
import { globMatcher } from "./globs";
import type { Shrink } from "./test-set";
import { FAILS_WITHOUT_CHANGE, PROOF_KIND, PROOF_NAMES, PROTECTED, TESTS_ADDED, TESTS_KEPT } from "./proof-ids";
import type { ChecksPolicy } from "./work-schema";
import { RUN_STOPPED } from "./row-warning";

export { FAILS_WITHOUT_CHANGE, isProofRow, PROOF_KIND, PROOF_NAMES, PROTECTED, TESTS_KEPT } from "./proof-ids";

export type FileChange = { status: "A" | "M" | "D"; path: string };

type ProofVerdict = "passed" | "failed" | "skipped" | "error";

export type ProofRow = {
  checkId: string;
  name: string;
  kind: typeof PROOF_KIND;
  required: boolean;
  verdict: ProofVerdict;
  // One line a delivery owner understands.
  message: string;
  // What the row found and what to do about it (its log; the brief shows it to the agent).
  details: string;
};

function row(checkId: string, required: boolean, verdict: ProofVerdict, message: string, details: string[]): ProofRow {
  return {
    checkId,
    name: PROOF_NAMES[checkId],
    kind: PROOF_KIND,
    required,
    verdict,
    message,
    details: `${details.join("\n")}\n`,
  };
}

const list = (files: readonly string[], max = 5) =>
  files.length <= max ? files.join(", ") : `${files.slice(0, max).join(", ")} and ${files.length - max} more`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// Parses `git diff-tree -r -z --no-renames --name-status` output.
export function parseNameStatus(output: string): FileChange[] {
  const parts = output.split("\0").filter((p) => p !== "");
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const code = parts[i][0];
    const status = code === "A" ? "A" : code === "D" ? "D" : "M";
    changes.push({ status, path: parts[i + 1] });
  }
  return changes;
}

// ---- _tests-added ------------------------------------------------------------------------------

export function testsAddedRow(input: {
  changes: readonly FileChange[];
  testPatterns: readonly string[];
  requireTests: ChecksPolicy;
}): ProofRow | null {
  if (input.requireTests === "off") return null;
  const isTest = globMatcher(input.testPatterns);
  const tests = input.changes.filter((c) => isTest(c.path) && c.status !== "D").map((c) => c.path);
  const required = input.requireTests === "required";
  if (tests.length > 0)
    return row(
      TESTS_ADDED,
      required,
      "passed",
      `The change touches ${plural(tests.length, "test file")}: ${list(tests)}`,
      ["Test files the change added or changed:", ...tests.map((t) => `  ${t}`)],
    );
  return row(
    TESTS_ADDED,
    required,
    "failed",
    input.changes.length === 0
      ? "Nothing was changed, so no test was added"
      : "The change adds or changes no test: none of its files is a test file",
    [
      `The change touches ${plural(input.changes.length, "file")}${
        input.changes.length
          ? `: ${list(
              input.changes.map((c) => c.path),
              10,
            )}`
          : ""
      }; none matches the Work's test patterns:`,
      ...input.testPatterns.map((p) => `  ${p}`),
      "",
      "What to do: add or change a test that shows the change works, in a file matching one of these patterns.",
    ],
  );
}

// ---- _protected --------------------------------------------------------------------------------

// The rule (README, "Proof rows"): a path in `protectedPaths` is red whenever the change touches it. A gate
// file of a check (a script it runs, the package.json script, make target or test-runner configuration
// that decides what it runs) that the change edited is judged by running the checks it affects again with
// the start commit's version of those files: red when a check passes only with its edited gate, green
// with a note when it passes with the original too (the file was the code under test, not the gate).
export function protectedRow(input: {
  changes: readonly FileChange[];
  protectedPaths: readonly string[];
  // Whether any check has a gate file at all (no row when nothing is protected and none has).
  hasGateFiles: boolean;
  edits: readonly GateEdit[];
  // The affected checks that passed with the change's version, run again with the originals (null: none).
  reruns: readonly Rerun[] | null;
  // Affected checks that did not pass with the change's version: not run again (they pass nothing).
  notPassing?: readonly string[];
}): ProofRow | null {
  if (input.protectedPaths.length === 0 && !input.hasGateFiles && input.edits.length === 0) return null;
  const isProtected = globMatcher(input.protectedPaths);
  const verb = (s: FileChange["status"]) => (s === "A" ? "added" : s === "D" ? "deleted" : "changed");
  const touched = input.changes.filter((c) => isProtected(c.path));
  const rule = [
    "The rule: a file in the Work's protectedPaths is red whenever the change touches it. A gate file of a",
    "check (a script it runs, the package.json script, make target or test-runner configuration deciding",
    "what it runs) that the change edited is judged by running the check again with the start commit's",
    "version of it: red when the check passes only with its edited gate.",
  ];
  const editLines = input.edits.map((e) => `  ${e.labels.join(", ")} (decides check ${quoteIds(e.checks)})`);
  const rerunLines = (input.reruns ?? []).map((r) => `  ${describeRerun(r)}`);
  if (touched.length > 0)
    return row(
      PROTECTED,
      true,
      "failed",
      `The change edits the gate's own files: ${list(touched.map((t) => t.path))}`,
      [
        "A change that edits its own gate is never judged by it: the gate is red whatever the checks say.",
        "",
        ...touched.map((t) => `  ${t.path} (${verb(t.status)}; protected)`),
        ...(editLines.length ? ["", "Gate files of the checks the change also edited:", ...editLines] : []),
        "",
        "What to do: undo the changes to these files and make the checks pass as they are. " +
          "If the gate itself must change, a person changes it outside this task.",
        "",
        ...rule,
      ],
    );
  const notRun = notRunRow(PROTECTED, true, input.reruns);
  if (notRun) return notRun;
  const broken = (input.reruns ?? []).filter((r) => r.verdict !== "passed");
  const labelsOf = (checkId: string) =>
    [...new Set(input.edits.filter((e) => e.checks.includes(checkId)).flatMap((e) => e.labels))].join(", ");
  const header = [
    "The change edited gate files of the checks:",
    ...editLines,
    "",
    "The checks that passed with the change's version ran again with the start commit's version of these files:",
    ...rerunLines,
    ...(input.notPassing?.length
      ? [`  not run again (they did not pass as changed): ${quoteIds(input.notPassing)}`]
      : []),
  ];
  if (broken.length > 0)
    return row(
      PROTECTED,
      true,
      "failed",
      broken.map((r) => `"${r.checkId}" passes only with its edited gate: ${labelsOf(r.checkId)}`).join("; "),
      [
        ...header,
        "",
        "A check that passes only with its own gate edited is not judged by that gate: the gate is red.",
        "What to do: undo the changes to these files and make the checks pass as they were. " +
          "If the gate itself must change, a person changes it outside this task.",
        "",
        ...rule,
        ...tailsOf(broken),
      ],
    );
  if (input.edits.length > 0) {
    const passed = new Set((input.reruns ?? []).map((r) => r.checkId));
    const notes = input.edits.map((e) => {
      const ids = e.checks.filter((c) => passed.has(c));
      return ids.length
        ? `${e.labels.join(", ")} changed; check ${quoteIds(ids)} ` +
            `${ids.length === 1 ? "runs it and passes" : "run it and pass"} with the original too`
        : `${e.labels.join(", ")} changed; check ${quoteIds(e.checks)} did not pass with it`;
    });
    return row(PROTECTED, true, "passed", notes.join("; "), [...header, "", ...rule]);
  }
  return row(PROTECTED, true, "passed", "The change leaves the gate's own files alone", [
    "No file the change touched is protected or a gate file of a check.",
    ...(input.protectedPaths.length ? ["Protected:", ...input.protectedPaths.map((p) => `  ${p}`)] : []),
    "",
    ...rule,
  ]);
}

const quoteIds = (ids: readonly string[]) => ids.map((id) => `"${id}"`).join(", ");

// ---- skip markers ------------------------------------------------------------------------------

const SKIP_MARKERS: { label: string; pattern: RegExp }[] = [
  { label: "it.skip", pattern: /\bit\.skip\b/ },
  { label: "test.skip", pattern: /\btest\.skip\b/ },
  { label: "describe.skip", pattern: /\bdescribe\.skip\b/ },
  { label: "xit", pattern: /\bx(it|test|describe)\s*\(/ },
  { label: ".only", pattern: /\b(it|test|describe|context|suite)\.only\b/ },
  { label: "@pytest.mark.skip", pattern: /@pytest\.mark\.skip/ },
  { label: "pytest.skip(", pattern: /\bpytest\.skip\(/ },
  { label: "t.Skip(", pattern: /\bt\.Skip(f|Now)?\(/ },
  { label: "#[ignore]", pattern: /#\[ignore\b/ },
  { label: "passWithNoTests", pattern: /passWithNoTests/ },
];

export type SkipMarker = { file: string; marker: string; line: string };

// Skip markers on the lines a change added, from `git diff -U0` output. A hunk's lines are counted from its
// header, so an added line that itself begins "++" (`++i; it.skip(…)`) is read as a line, never as a file
// header.
export function findSkipMarkers(diff: string): SkipMarker[] {
  const found: SkipMarker[] = [];
  let file: string | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of diff.split("\n")) {
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith("-")) oldLeft--;
      else if (line.startsWith(" ")) {
        oldLeft--;
        newLeft--;
      } else if (line.startsWith("+")) {
        newLeft--;
        const added = line.slice(1);
        if (file)
          for (const { label, pattern } of SKIP_MARKERS)
            if (pattern.test(added)) found.push({ file, marker: label, line: added.trim().slice(0, 160) });
      }
      continue;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
    } else if (line.startsWith("+++ ")) {
      const name = line.slice(4);
      file = name === "/dev/null" ? null : name.replace(/^"?b\//, "").replace(/"$/, "");
    }
  }
  return found;
}

// ---- re-runs (_tests-kept, _fails-without-change) ----------------------------------------------

export type Rerun = {
  checkId: string;
  verdict: string;
  exitCode: number | null;
  message: string | null;
  tail: string | null;
  // How it ran (test selection): only some test files, or the whole command and why (lib/gates/test-selection.ts).
  note?: string;
  // The test files the run that decided was limited to (absent: the whole command decided).
  subset?: readonly string[];
  // The same files run as the change has them, for the test-set rule's count (null tail: none is left).
  subsetAfter?: { tail: string | null };
};

function describeRerun(r: Rerun): string {
  const what =
    r.verdict === "passed"
      ? "passed"
      : r.verdict === "timeout"
        ? "timed out"
        : r.verdict === "skipped"
          ? "was not run"
          : r.exitCode === null
            ? r.verdict
            : `${r.verdict} (exit code ${r.exitCode})`;
  return `"${r.checkId}" ${what}${r.message ? `: ${r.message}` : ""}`;
}

function tailsOf(reruns: readonly Rerun[]): string[] {
  return reruns.flatMap((r) =>
    r.tail?.trim() ? ["", `--- last lines of "${r.checkId}" ---`, ...r.tail.replace(/\n$/, "").split("\n")] : [],
  );
}

// A row's log says how each check ran again: only the test files the row is about, or the whole command.
export function withRerunNotes(r: ProofRow, reruns: readonly Rerun[] | null): ProofRow {
  const notes = (reruns ?? []).filter((x) => x.note).map((x) => `  "${x.checkId}": ${x.note}`);
  if (notes.length === 0) return r;
  return { ...r, details: `${r.details}\nHow the checks ran again:\n${notes.join("\n")}\n` };
}

// Which test files of the start commit the change modified or deleted (they are laid back for _tests-kept).
export function testFilesToRestore(changes: readonly FileChange[], testPatterns: readonly string[]): FileChange[] {
  const isTest = globMatcher(testPatterns);
  return changes.filter((c) => c.status !== "A" && isTest(c.path));
}

// A re-run the budget or a stop cut short proves nothing either way: the row is skipped, saying why.
function notRunRow(checkId: string, required: boolean, reruns: readonly Rerun[] | null): ProofRow | null {
  const skipped = (reruns ?? []).find((r) => r.verdict === "skipped");
  if (!skipped) return null;
  return row(checkId, required, "skipped", `Not run to the end: ${skipped.message ?? RUN_STOPPED}`, [
    ...(reruns ?? []).map((r) => `  ${describeRerun(r)}`),
  ]);
}

export function testsKeptRow(input: {
  restored: readonly FileChange[];
  markers: readonly SkipMarker[];
  // null: nothing was run again (no test file was modified or deleted, or no test check).
  reruns: readonly Rerun[] | null;
  hasTestChecks: boolean;
}): ProofRow | null {
  const deleted = input.restored.filter((c) => c.status === "D").map((c) => c.path);
  const modified = input.restored.filter((c) => c.status === "M").map((c) => c.path);
  if (!input.hasTestChecks && deleted.length === 0 && input.markers.length === 0) return null;
  const notes = [
    ...(deleted.length ? [`The change deleted ${plural(deleted.length, "test file")}: ${list(deleted)}.`] : []),
    ...(input.markers.length
      ? [
          `The change added ${plural(input.markers.length, "skip marker")}:`,
          ...input.markers.map((m) => `  ${m.file}: ${m.marker} — ${m.line}`),
        ]
      : []),
  ];
  const suffix = [
    ...(deleted.length ? [`deleted ${list(deleted, 3)}`] : []),
    ...(input.markers.length ? [`added ${[...new Set(input.markers.map((m) => m.marker))].join(", ")}`] : []),
  ];
  const also = suffix.length ? ` (the change ${suffix.join(" and ")})` : "";
  const notRun = notRunRow(TESTS_KEPT, true, input.reruns);
  if (notRun) return notRun;
  const failing = (input.reruns ?? []).filter((r) => r.verdict !== "passed");
  const ranOn = modified.length + deleted.length;
  if (input.reruns === null) {
    // No test file that was there was modified or deleted: the tests that ran are the ones that were there.
    if (!input.hasTestChecks)
      return row(TESTS_KEPT, true, "failed", `No test check could confirm the tests still pass${also}`, [
        ...notes,
        "",
        "The Work has no check of kind test to run them with.",
        "What to do: restore the deleted tests and remove the skip markers.",
      ]);
    return row(TESTS_KEPT, true, "passed", `No test file that was there was changed or deleted${also}`, [
      "The test checks ran on the tests as they were at the start, so they still pass.",
      ...(notes.length ? ["", ...notes] : []),
    ]);
  }
  const header =
    `The test checks ran again with the start commit's version of ${plural(ranOn, "test file")} ` +
    "the change modified or deleted:";
  const files = [...modified.map((f) => `  ${f} (modified)`), ...deleted.map((f) => `  ${f} (deleted)`)];
  if (failing.length === 0)
    return row(
      TESTS_KEPT,
      true,
      "passed",
      `The ${plural(ranOn, "test file")} the change modified or deleted still ` +
        `${ranOn === 1 ? "passes" : "pass"} as ${ranOn === 1 ? "it was" : "they were"}${also}`,
      [
        header,
        ...files,
        "",
        ...input.reruns.map((r) => `  ${describeRerun(r)}`),
        ...(notes.length ? ["", ...notes] : []),
      ],
    );
  return row(
    TESTS_KEPT,
    true,
    "failed",
    `With the tests as they were, ${failing.map((r) => `"${r.checkId}"`).join(", ")} ` +
      `${failing.length === 1 ? "fails" : "fail"}: the change weakened or removed tests${also}`,
    [
      header,
      ...files,
      "",
      ...input.reruns.map((r) => `  ${describeRerun(r)}`),
      ...(notes.length ? ["", ...notes] : []),
      "",
      "What to do: restore the tests you weakened, deleted or skipped, and make the code pass them.",
      ...tailsOf(failing),
    ],
  );
}

// `_tests-kept` and the test set (lib/gates/test-set.ts): a test check that runs fewer tests than at the
// start commit, or no longer runs a test that passed there, makes the row red, naming what vanished.
export function withShrink(
  kept: ProofRow | null,
  shrunk: readonly Shrink[],
  renamedOut: readonly { from: string; to: string }[],
): ProofRow | null {
  if (shrunk.length === 0) return kept;
  const what = shrunk.map((s) =>
    s.vanished.length
      ? `"${s.checkId}" no longer runs ${plural(s.vanished.length, "test")} that passed at the ` +
        `start: ${list(s.vanished, 3)}`
      : `"${s.checkId}" ran ${plural(s.after ?? 0, "test")} where it ran ${s.before} at the start`,
  );
  const moved = renamedOut.length
    ? ` (${renamedOut.map((r) => `${r.from} was renamed to ${r.to}`).join(", ")}, out of the test patterns)`
    : "";
  const lines = [
    "The test set shrank: the test checks ran fewer tests than they ran at the start commit (with the tests as",
    "they were there), and the change deletes no test file outright.",
    ...shrunk.flatMap((s) => [
      `  "${s.checkId}": ${s.before ?? "?"} at the start, ${s.after ?? "?"} with the change`,
      ...s.vanished.map((n) => `    no longer run: ${n}`),
    ]),
    ...renamedOut.map((r) => `  ${r.from} → ${r.to} (no longer matches the Work's test patterns)`),
    "",
    "What to do: run every test that was there (keep test files where the runner finds them, do not exclude",
    "or deselect them), and make the code pass them.",
  ];
  const message = `${what.join("; ")}${moved}`;
  if (!kept) return row(TESTS_KEPT, true, "failed", message, lines);
  return {
    ...kept,
    verdict: kept.verdict === "passed" ? "failed" : kept.verdict,
    message: kept.verdict === "passed" ? message : kept.message,
    details: `${kept.details}\n${lines.join("\n")}\n`,
  };
}

export function failsWithoutChangeRow(input: {
  vacuousPolicy: ChecksPolicy;
  // The checks with provesChange, run at the start commit with the change's test files laid over it.
  reruns: readonly Rerun[];
  laidOver: readonly string[];
  // An earlier run of the same task whose green commit the start commit already holds: the checks pass
  // there because the fix is there, not because they test nothing.
  heldFix?: { runNumber: number; commit: string } | null;
}): ProofRow | null {
  if (input.vacuousPolicy === "off" || input.reruns.length === 0) return null;
  const required = input.vacuousPolicy === "required";
  const notRun = notRunRow(FAILS_WITHOUT_CHANGE, required, input.reruns);
  if (notRun) return notRun;
  const vacuous = input.reruns.filter((r) => r.verdict === "passed");
  const context = [
    `The checks that prove the change ran again at the run's start commit${
      input.laidOver.length
        ? ` with the change's ${plural(input.laidOver.length, "test file")} laid over it:`
        : " (the change has no test files to lay over it)."
    }`,
    ...input.laidOver.map((f) => `  ${f}`),
    "",
    ...input.reruns.map((r) => `  ${describeRerun(r)}`),
  ];
  if (vacuous.length === 0)
    return row(
      FAILS_WITHOUT_CHANGE,
      required,
      "passed",
      input.reruns.length === 1
        ? `Without the change, "${input.reruns[0].checkId}" fails: it tests the work`
        : `Without the change, all ${input.reruns.length} checks that prove it fail: they test the work`,
      context,
    );
  const held = input.heldFix;
  if (held)
    return row(
      FAILS_WITHOUT_CHANGE,
      required,
      "failed",
      `The start commit already passes: the task's branch held run #${held.runNumber}'s fix`,
      [
        ...context,
        "",
        `The run started from a commit that already contains ${held.commit.slice(0, 12)}, on which run ` +
          `#${held.runNumber} of this task went green: ${quoteIds(vacuous.map((r) => r.checkId))} ` +
          `${vacuous.length === 1 ? "passes" : "pass"} at the start because the work was already done there, ` +
          "not because the check tests nothing.",
        "So this run's change cannot be shown to do the work: it was there before it.",
        `What to do: read run #${held.runNumber}'s result for the fix; to prove a new change, dispatch it from a ` +
          "branch without that fix.",
      ],
    );
  return row(
    FAILS_WITHOUT_CHANGE,
    required,
    "failed",
    `${vacuous.map((r) => `"${r.checkId}"`).join(", ")} ${vacuous.length === 1 ? "passes" : "pass"} ` +
      `without the change too: ${vacuous.length === 1 ? "it proves" : "they prove"} nothing`,
    [
      ...context,
      "",
      "A check that passes whether or not the work was done does not show the work was done.",
      "What to do: add a test that fails before the change and passes after it " +
        "(a file matching the Work's test patterns).",
    ],
  );
}

// A check proves the change when it says so; unset, when a task added it (the Work's defaults run on
// every task, so they rarely fail without one particular change).
export function provesChangeOf(check: { provesChange?: boolean; source?: string }): boolean {
  return check.provesChange ?? check.source === "added";
}
