// `gatehouse gates lint|import|export <file>`: a gates file (YAML or a Markdown runbook) checked with the
// same parser the editor uses; imported as a Work's check defaults (with the proof settings, check sources
// and merge policy it names) in one PATCH at the version read, so nothing is half-saved; exported as a file.
import fs from "node:fs";
import type { Check } from "../gates/check-schema";
import { parseGatesFile, toGatesMarkdown, toGatesYaml, type ImportResult } from "../gates/gates-file";
import type { ApiClient } from "./api-client";
import { CliError } from "./cli-error";
import { findWork } from "./find-task";
import { readAll } from "./read-input";

// Why a file could not be read or written, in words (the code when it is a rarer one).
function reasonOf(error: unknown, isWrite: boolean): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return isWrite ? "its folder does not exist" : "no such file";
  if (code === "EISDIR") return "it is a folder";
  if (code === "ENOTDIR") return "a part of its path is not a folder";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EROFS") return "the file system is read-only";
  if (code === "ENOSPC") return "no space left on the device";
  return code ?? (error as Error).message;
}

async function readFile(file: string): Promise<string> {
  try {
    return file === "-" ? await readAll(process.stdin) : fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${reasonOf(error, false)}`);
  }
}

function writeFile(file: string, body: string): void {
  try {
    fs.writeFileSync(file, body);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${reasonOf(error, true)}`);
  }
}

// Every problem of the file, one line each (empty: the file is clean).
function problemsOf(result: ImportResult): string[] {
  return [
    ...(result.fileProblem ? [result.fileProblem] : []),
    ...(result.fileNotes ?? []),
    ...result.entries.flatMap((e) => e.problems.map((p) => `${e.label}: ${p}`)),
    ...(result.proofProblems ?? []),
    ...(result.checkSourceProblems ?? []),
    ...(result.mergeProblems ?? []),
    ...(result.laneProblems ?? []),
  ];
}

export async function lintGatesFile(
  file: string,
): Promise<{ checks: Check[]; problems: string[]; result: ImportResult }> {
  const result = parseGatesFile(await readFile(file));
  const checks = result.entries.flatMap((e) => (e.check ? [e.check] : []));
  return { checks, problems: problemsOf(result), result };
}

export async function importGatesFile(client: ApiClient, file: string, workRef: string) {
  const { checks, problems, result } = await lintGatesFile(file);
  if (problems.length > 0)
    throw new CliError(
      `${file} has ${problems.length} problem${problems.length === 1 ? "" : "s"}, nothing ` +
        `imported:\n  ${problems.join("\n  ")}`,
    );
  const work = await findWork(client, workRef);
  return client.patchWork(work.id, {
    version: work.version,
    checkDefaults: checks,
    ...(result.proof ?? {}),
    ...(result.checkSources ? { checkSources: result.checkSources } : {}),
    ...(result.merge ? { mergePolicy: result.merge } : {}),
    ...(result.lanes ? { lanes: result.lanes } : {}),
  });
}

export async function exportGatesFile(client: ApiClient, file: string, workRef: string, format?: string) {
  const work = await findWork(client, workRef);
  const checks = work.checkDefaults as Check[];
  const isMarkdown = format ? format === "markdown" : /\.md$/i.test(file);
  const settings = {
    proof: {
      testPatterns: work.testPatterns,
      requireTests: work.requireTests,
      protectedPaths: work.protectedPaths,
      vacuousPolicy: work.vacuousPolicy,
      profile: work.profile,
    } as Record<string, unknown>,
    checkSources: work.checkSources as never,
    merge: work.mergePolicy as never,
    lanes: (work.lanes ?? []) as never,
  };
  const body = isMarkdown ? toGatesMarkdown(checks, settings) : toGatesYaml(checks, settings);
  if (file === "-") process.stdout.write(body);
  else writeFile(file, body);
  return { work, count: checks.length };
}
