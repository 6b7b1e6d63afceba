// Proof rows (SPEC Part 2, "Proof rows"): rows no command of the Work defines, made after the check step
// of every attempt, that say whether a green gate means something. Pure rules: the runner gathers the
// change (files and added lines) and runs the checks again where a row needs it; these decide the rows.
import { globMatcher } from "./globs";
import { FAILS_WITHOUT_CHANGE, PROOF_KIND, PROOF_NAMES, PROTECTED, TESTS_ADDED, TESTS_KEPT } from "./proof-ids";
import type { ChecksPolicy } from "./work-schema";

export { FAILS_WITHOUT_CHANGE, isProofRow, PROOF_KIND, PROOF_NAMES, TESTS_KEPT } from "./proof-ids";

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

export function protectedRow(input: {
  changes: readonly FileChange[];
  protectedPaths: readonly string[];
  // Checkout-relative scripts the checks' commands run, with the checks that run each.
  scripts: ReadonlyMap<string, readonly string[]>;
}): ProofRow | null {
  if (input.protectedPaths.length === 0 && input.scripts.size === 0) return null;
  const isProtected = globMatcher(input.protectedPaths);
  const touched = input.changes.flatMap((c) => {
    const byChecks = input.scripts.get(c.path);
    const why = [
      ...(isProtected(c.path) ? ["protected"] : []),
      ...(byChecks ? [`run by check ${byChecks.map((id) => `"${id}"`).join(", ")}`] : []),
    ];
    return why.length ? [{ ...c, why: why.join("; ") }] : [];
  });
  if (touched.length === 0)
    return row(PROTECTED, true, "passed", "The change leaves the gate's own files alone", [
      "No file the change touched is protected or run by a check.",
      ...(input.protectedPaths.length ? ["Protected:", ...input.protectedPaths.map((p) => `  ${p}`)] : []),
      ...(input.scripts.size ? ["Scripts the checks run:", ...[...input.scripts.keys()].map((s) => `  ${s}`)] : []),
    ]);
  const verb = (s: FileChange["status"]) => (s === "A" ? "added" : s === "D" ? "deleted" : "changed");
  return row(PROTECTED, true, "failed", `The change edits the gate's own files: ${list(touched.map((t) => t.path))}`, [
    "A change that edits its own gate is never judged by it: the gate is red whatever the checks say.",
    "",
    ...touched.map((t) => `  ${t.path} (${verb(t.status)}; ${t.why})`),
    "",
    "What to do: undo the changes to these files and make the checks pass as they are. " +
      "If the gate itself must change, a person changes it outside this task.",
  ]);
}

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

// Skip markers on the lines a change added, from `git diff -U0` output.
export function findSkipMarkers(diff: string): SkipMarker[] {
  const found: SkipMarker[] = [];
  let file: string | null = null;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++ ")) {
      const name = line.slice(4);
      file = name === "/dev/null" ? null : name.replace(/^"?b\//, "").replace(/"$/, "");
      continue;
    }
    if (!file || !line.startsWith("+") || line.startsWith("+++")) continue;
    const added = line.slice(1);
    for (const { label, pattern } of SKIP_MARKERS)
      if (pattern.test(added)) found.push({ file, marker: label, line: added.trim().slice(0, 160) });
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

// Which test files of the start commit the change modified or deleted (they are laid back for _tests-kept).
export function testFilesToRestore(changes: readonly FileChange[], testPatterns: readonly string[]): FileChange[] {
  const isTest = globMatcher(testPatterns);
  return changes.filter((c) => c.status !== "A" && isTest(c.path));
}

// A re-run the budget or a stop cut short proves nothing either way: the row is skipped, saying why.
function notRunRow(checkId: string, required: boolean, reruns: readonly Rerun[] | null): ProofRow | null {
  const skipped = (reruns ?? []).find((r) => r.verdict === "skipped");
  if (!skipped) return null;
  return row(checkId, required, "skipped", `Not run to the end: ${skipped.message ?? "the run was stopped"}`, [
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

export function failsWithoutChangeRow(input: {
  vacuousPolicy: ChecksPolicy;
  // The checks with provesChange, run at the start commit with the change's test files laid over it.
  reruns: readonly Rerun[];
  laidOver: readonly string[];
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
