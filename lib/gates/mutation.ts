// The mutation floor (SPEC Part 2, "Verification profiles", profile full): the files the change touched are
// mutated and the tests must notice. Pure rules: finding the committed threshold, which files to mutate,
// reading the mutation-testing JSON report (Stryker's format), and the `_mutation` row.
import { globMatcher } from "./globs";
import { PROOF_KIND, PROOF_NAMES, type FileChange, type ProofRow } from "./proof";
import { MUTATION } from "./proof-ids";

export const NO_THRESHOLD = "no mutation threshold committed: nobody checked";
// Stryker's configuration files, as it looks for them.
export const STRYKER_CONFIGS = [
  "stryker.config.json",
  "stryker.conf.json",
  ".strykerrc.json",
  "stryker.config.js",
  "stryker.conf.js",
  "stryker.config.mjs",
  "stryker.conf.mjs",
  "stryker.config.cjs",
  "stryker.conf.cjs",
];
const DEFAULT_STRYKER_REPORT = "reports/mutation/mutation.json";
const SOURCE = /\.(?:[cm]?[jt]sx?)$/;

export type StrykerSettings = { breakAt: number | null; reportFile: string };

// thresholds.break (and the JSON reporter's file) of a Stryker configuration. A JSON file is parsed; a JS
// one is read, not run: `break: <number>` inside it.
export function readStrykerConfig(fileName: string, text: string): StrykerSettings {
  if (fileName.endsWith(".json")) {
    try {
      const config = JSON.parse(text) as { thresholds?: { break?: unknown }; jsonReporter?: { fileName?: unknown } };
      const breakAt = config.thresholds?.break;
      const file = config.jsonReporter?.fileName;
      return {
        breakAt: typeof breakAt === "number" && breakAt > 0 ? breakAt : null,
        reportFile: typeof file === "string" && file ? file : DEFAULT_STRYKER_REPORT,
      };
    } catch {
      return { breakAt: null, reportFile: DEFAULT_STRYKER_REPORT };
    }
  }
  const found = /\bbreak\s*:\s*(\d+(?:\.\d+)?)/.exec(text);
  const breakAt = found ? Number(found[1]) : null;
  return { breakAt: breakAt && breakAt > 0 ? breakAt : null, reportFile: DEFAULT_STRYKER_REPORT };
}

// The files to mutate: source files the change added or modified, not tests.
export function mutationTargets(changes: readonly FileChange[], testPatterns: readonly string[]): string[] {
  const isTest = globMatcher(testPatterns);
  return changes.filter((c) => c.status !== "D" && SOURCE.test(c.path) && !isTest(c.path)).map((c) => c.path);
}

type MutantSeen = { line: number; mutator: string; replacement: string | null };
type MutationFile = {
  path: string;
  score: number | null;
  killed: number;
  survived: number;
  noCoverage: number;
  timeout: number;
  // Mutants the tests did not notice (survived or not covered), at most 50 a file.
  survivors: MutantSeen[];
};
export type MutationReport = { score: number | null; breakAt: number | null; files: MutationFile[] };

type RawMutant = {
  status?: unknown;
  mutatorName?: unknown;
  replacement?: unknown;
  location?: { start?: { line?: unknown } };
};

const scoreOf = (detected: number, valid: number) =>
  valid === 0 ? null : Math.round((detected / valid) * 10000) / 100;

// A mutation-testing-elements JSON report (what Stryker writes with the `json` reporter) → scores per file.
// The score is Stryker's: (killed + timeout) / (killed + timeout + survived + no coverage).
export function parseMutationReport(text: string): MutationReport | { problem: string } {
  let json: { files?: unknown; thresholds?: { break?: unknown } };
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problem: `the report is not JSON: ${(error as Error).message}` };
  }
  if (!json || typeof json.files !== "object" || json.files === null)
    return { problem: "the report has no `files` (not a mutation-testing JSON report)" };
  const files: MutationFile[] = [];
  let detected = 0;
  let valid = 0;
  for (const [file, value] of Object.entries(json.files as Record<string, { mutants?: RawMutant[] }>)) {
    const mutants = Array.isArray(value?.mutants) ? value.mutants : [];
    const count = (status: string) => mutants.filter((m) => m.status === status).length;
    const f = {
      path: file,
      killed: count("Killed"),
      survived: count("Survived"),
      noCoverage: count("NoCoverage"),
      timeout: count("Timeout"),
    };
    const fileDetected = f.killed + f.timeout;
    const fileValid = fileDetected + f.survived + f.noCoverage;
    detected += fileDetected;
    valid += fileValid;
    const survivors = mutants
      .filter((m) => m.status === "Survived" || m.status === "NoCoverage")
      .slice(0, 50)
      .map((m) => ({
        line: typeof m.location?.start?.line === "number" ? m.location.start.line : 0,
        mutator: typeof m.mutatorName === "string" ? m.mutatorName : "?",
        replacement: typeof m.replacement === "string" ? m.replacement : null,
      }));
    files.push({ ...f, score: scoreOf(fileDetected, fileValid), survivors });
  }
  const breakAt = json.thresholds?.break;
  return {
    score: scoreOf(detected, valid),
    breakAt: typeof breakAt === "number" && breakAt > 0 ? breakAt : null,
    files,
  };
}

export type MutationRecord = {
  verdict: "passed" | "failed" | "skipped" | "error";
  tool: "stryker" | "command" | null;
  score: number | null;
  breakAt: number | null;
  files: MutationFile[];
  mutated: string[];
  message: string;
};

export function mutationRow(record: MutationRecord): ProofRow {
  const lines = [record.message];
  if (record.mutated.length) lines.push("", `Mutated: ${record.mutated.join(", ")}`);
  for (const f of record.files) {
    lines.push(
      "",
      `${f.path}: score ${f.score ?? "n/a"} (killed ${f.killed}, timeout ${f.timeout}, survived ` +
        `${f.survived}, no coverage ${f.noCoverage})`,
    );
    for (const m of f.survivors)
      lines.push(`  line ${m.line}: ${m.mutator}${m.replacement ? ` → ${m.replacement}` : ""}`);
  }
  if (record.verdict === "failed")
    lines.push("", "What to do: add or sharpen tests so that they fail when these lines change.");
  return {
    checkId: MUTATION,
    name: PROOF_NAMES[MUTATION],
    kind: PROOF_KIND,
    // Skipped (no threshold, a red gate, no source file changed, the budget spent) is no pass, but does not
    // decide the gate; a run, red or in error, does.
    required: record.verdict !== "skipped",
    verdict: record.verdict,
    message: record.message,
    details: `${lines.join("\n")}\n`,
  };
}

// The verdict of a finished mutation run: under the threshold is red; a tool without a threshold is
// judged by its exit code.
export function judgeMutation(input: {
  tool: "stryker" | "command";
  report: MutationReport;
  breakAt: number | null;
  exitCode: number | null;
  mutated: string[];
}): MutationRecord {
  const breakAt = input.breakAt ?? input.report.breakAt;
  const base = {
    tool: input.tool,
    score: input.report.score,
    breakAt,
    files: input.report.files,
    mutated: input.mutated,
  };
  const score = input.report.score;
  if (breakAt !== null) {
    if (score === null)
      return { ...base, verdict: "failed", message: `no mutant could be judged (threshold ${breakAt})` };
    return score >= breakAt
      ? { ...base, verdict: "passed", message: `mutation score ${score} ≥ ${breakAt}` }
      : { ...base, verdict: "failed", message: `mutation score ${score} is under the threshold ${breakAt}` };
  }
  return input.exitCode === 0
    ? {
        ...base,
        verdict: "passed",
        message: `mutation score ${score ?? "n/a"} (the command passed; no threshold in its report)`,
      }
    : {
        ...base,
        verdict: "failed",
        message: `the mutation command failed (exit code ${input.exitCode}); score ${score ?? "n/a"}`,
      };
}
