// Gates as files: a YAML list (`gates: - run: …`) or a Markdown runbook (`## Code Checks`, then
// `### id — name` and one fenced shell block per check). Import lists every entry that cannot become a
// check with its reason (nothing is dropped silently); export writes either shape.
// The format's own reading and writing is in yaml.ts and markdown.ts, what each section means in sections.ts
// and entries.ts.
import { parseMarkdown } from "./markdown";
import type { ImportResult } from "./sections";
import { parseYaml } from "./yaml";

export { slugifyId } from "./entries";
export { toGatesMarkdown } from "./markdown";
export type { ImportResult, ProofFileSettings } from "./sections";
export { toGatesYaml } from "./yaml";

export function parseGatesFile(text: string): ImportResult {
  if (!text.trim()) return { format: "unknown", entries: [], fileProblem: "the file is empty" };
  if (/^##\s+code\s+checks\s*$/im.test(text) || /^\s*(```|~~~)/m.test(text)) return parseMarkdown(text);
  return parseYaml(text);
}
