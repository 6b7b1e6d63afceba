// The YAML shape of a gates file: a list (`gates: - run: …`, or the list alone), with `proof:`,
// `check_sources:`, `merge:`, `sandbox:` and `lanes:` beside it.
import YAML from "yaml";
import { toChecks, yamlEntryOf, yamlRaws } from "./entries";
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
import { lanesYamlBlock, readLanesBlock } from "./lanes";
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
      : // A file of lanes alone (a Work whose checks are all its stages') is a gates file too.
        doc && typeof doc === "object" && (doc as { lanes?: unknown }).lanes !== undefined
        ? []
        : null;
  if (!list)
    return {
      format: "yaml",
      entries: [],
      fileProblem: "expected a list under `gates:` (each entry a command, or a map with run:)",
    };
  const raws = yamlRaws(list);
  const mergeRead = readMergeBlock(doc);
  const sandboxRead = readSandboxBlock(doc);
  const lanesRead = readLanesBlock(doc);
  const settingsOnly = Boolean(
    proofRead.proof || sourcesRead.checkSources || mergeRead.merge || sandboxRead.sandbox || lanesRead.lanes,
  );
  return {
    format: "yaml",
    entries: toChecks(raws),
    fileProblem: list.length === 0 && !settingsOnly ? "the list under `gates:` is empty" : null,
    ...proofRead,
    ...sourcesRead,
    ...mergeRead,
    ...sandboxRead,
    ...lanesRead,
  };
}

export function toGatesYaml(checks: readonly Check[], settings: GatesFileSettings = {}): string {
  const { proof, checkSources, merge, sandbox, lanes } = settings;
  const gates = checks.map(yamlEntryOf);
  return YAML.stringify({
    gates,
    ...(proof && Object.keys(proof).length ? { proof: proofFileFields(proof) } : {}),
    ...(checkSources?.length ? { check_sources: checkSources } : {}),
    ...mergeYamlBlock(merge),
    ...sandboxYamlBlock(sandbox),
    ...lanesYamlBlock(lanes),
  });
}
