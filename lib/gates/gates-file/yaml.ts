// The YAML shape of a gates file: a list (`gates: - run: …`, or the list alone), with `proof:`,
// `check_sources:`, `merge:` and `sandbox:` beside it.
import YAML from "yaml";
import { formatDurationSec } from "../duration";
import { toChecks, YAML_KEYS, type Raw } from "./entries";
import {
  mergeYamlBlock,
  NO_CHECK_SOURCES,
  PROOF_KEYS_TEXT,
  proofFileFields,
  readCheckSources,
  readMergeBlock,
  readProof,
  type GatesFileSettings,
  type ImportResult,
} from "./sections";
import { readSandboxBlock, sandboxYamlBlock } from "./sandbox";
import type { Check } from "../check-schema";

// In YAML a leading "!" is a tag; in a gates file "! cmd" is a shell negation: keep it, quoted.
function quoteNegations(text: string): string {
  return text.replace(
    /^(\s*(?:-\s+)?(?:run:\s*)?)(!\s.*)$/gm,
    (_m, lead: string, value: string) => `${lead}'${value.replace(/'/g, "''")}'`,
  );
}

export function parseYaml(text: string): ImportResult {
  let doc: unknown;
  try {
    doc = YAML.parse(quoteNegations(text));
  } catch (error) {
    const hint = /\{\s*TODO\b/i.test(text)
      ? " (an unquoted {TODO: …} blank is read as YAML: fill it in, or quote the command)"
      : "";
    return {
      format: "yaml",
      entries: [],
      fileProblem: `not valid YAML: ${(error as Error).message.split("\n")[0]}${hint}`,
    };
  }
  const proofBlock =
    doc && typeof doc === "object" && !Array.isArray(doc) ? (doc as { proof?: unknown }).proof : undefined;
  const proofRead =
    proofBlock === undefined
      ? { proof: null, proofProblems: [] }
      : proofBlock && typeof proofBlock === "object" && !Array.isArray(proofBlock)
        ? readProof(proofBlock as Record<string, unknown>)
        : {
            proof: null,
            proofProblems: [`proof: must be a map (${PROOF_KEYS_TEXT})`],
          };
  const sourcesBlock =
    doc && typeof doc === "object" && !Array.isArray(doc)
      ? (doc as { check_sources?: unknown }).check_sources
      : undefined;
  const sourcesRead = sourcesBlock === undefined ? NO_CHECK_SOURCES : readCheckSources(sourcesBlock);
  const list = Array.isArray(doc)
    ? doc
    : doc && typeof doc === "object" && Array.isArray((doc as { gates?: unknown }).gates)
      ? (doc as { gates: unknown[] }).gates
      : null;
  if (!list)
    return {
      format: "yaml",
      entries: [],
      fileProblem: "expected a list under `gates:` (each entry a command, or a map with run:)",
    };
  const raws: Raw[] = list.map((item, i) => {
    const label = `entry ${i + 1}`;
    if (typeof item === "string")
      return { label: `${label}: ${item.split("\n")[0].slice(0, 60)}`, fields: { run: item }, problems: [] };
    if (!item || typeof item !== "object" || Array.isArray(item))
      return { label, fields: {}, problems: ["must be a command or a map with run:"] };
    if (Object.keys(item).length === 1 && /^TODO\b/i.test(Object.keys(item)[0]))
      return { label, fields: { run: item }, problems: [] };
    const fields: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [key, value] of Object.entries(item)) {
      if (!YAML_KEYS.has(key))
        problems.push(
          `unknown field: ${key} (known: run, id, name, kind, required, timeout, expect_exit, expect_stdout, ` +
            "cwd, junit, env, proves_change, use, with, executor, hidden)",
        );
      else fields[key === "env_passthrough" ? "env" : key] = value;
    }
    const title =
      typeof fields.name === "string"
        ? fields.name
        : typeof fields.run === "string"
          ? fields.run.split("\n")[0].slice(0, 60)
          : typeof fields.use === "string"
            ? fields.use
            : "";
    return { label: title ? `${label}: ${title}` : label, fields, problems };
  });
  const mergeRead = readMergeBlock(doc);
  const sandboxRead = readSandboxBlock(doc);
  const settingsOnly = Boolean(proofRead.proof || sourcesRead.checkSources || mergeRead.merge || sandboxRead.sandbox);
  return {
    format: "yaml",
    entries: toChecks(raws),
    fileProblem: list.length === 0 && !settingsOnly ? "the list under `gates:` is empty" : null,
    ...proofRead,
    ...sourcesRead,
    ...mergeRead,
    ...sandboxRead,
  };
}

export function toGatesYaml(checks: readonly Check[], settings: GatesFileSettings = {}): string {
  const { proof, checkSources, merge, sandbox } = settings;
  const gates = checks.map((c) => ({
    id: c.id,
    name: c.name,
    kind: c.kind,
    required: c.required,
    ...(c.use !== undefined ? { use: c.use, with: c.with ?? {} } : { run: c.command }),
    ...(c.timeoutSec !== undefined ? { timeout: formatDurationSec(c.timeoutSec) } : {}),
    ...(c.expectExit !== undefined ? { expect_exit: c.expectExit } : {}),
    ...(c.expectStdout !== undefined ? { expect_stdout: c.expectStdout } : {}),
    ...(c.cwd !== undefined ? { cwd: c.cwd } : {}),
    ...(c.junit !== undefined ? { junit: c.junit } : {}),
    ...(c.envPassthrough?.length ? { env: c.envPassthrough } : {}),
    ...(c.provesChange !== undefined ? { proves_change: c.provesChange } : {}),
    ...(c.executor !== undefined ? { executor: c.executor } : {}),
    ...(c.hidden !== undefined ? { hidden: c.hidden } : {}),
  }));
  return YAML.stringify({
    gates,
    ...(proof && Object.keys(proof).length ? { proof: proofFileFields(proof) } : {}),
    ...(checkSources?.length ? { check_sources: checkSources } : {}),
    ...mergeYamlBlock(merge),
    ...sandboxYamlBlock(sandbox),
  });
}
