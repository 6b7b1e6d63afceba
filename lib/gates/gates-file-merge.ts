// The Work's merge policy in gates files: `merge:` beside `gates:` in YAML (require_green_gate, auto_merge,
// method), a `## Merge` section of `- key: value` lines in Markdown. Import keeps what the schema accepts
// and lists the rest; export writes what the Work has.
import { ZMergePolicy, type MergePolicy } from "./merge-policy";

const KEYS = { require_green_gate: "requireGreenGate", auto_merge: "autoMerge", method: "method" } as const;
export type MergeFileRead = { merge: MergePolicy | null; mergeProblems: string[] };

function yesNo(value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (/^(yes|true|on)$/i.test(value.trim())) return true;
  if (/^(no|false|off)$/i.test(value.trim())) return false;
  return value.trim();
}

function readMerge(fields: Record<string, unknown>): MergeFileRead {
  const mergeProblems: string[] = [];
  const policy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const field = KEYS[key as keyof typeof KEYS];
    if (field) policy[field] = yesNo(value);
    else mergeProblems.push(`merge: unknown field: ${key} (known: ${Object.keys(KEYS).join(", ")})`);
  }
  const parsed = ZMergePolicy.safeParse(policy);
  if (parsed.success) return { merge: parsed.data, mergeProblems };
  const names = Object.fromEntries(Object.entries(KEYS).map(([k, f]) => [f, k]));
  for (const issue of parsed.error.issues)
    mergeProblems.push(`merge: ${issue.path.map((p) => names[String(p)] ?? String(p)).join(" ")}: ${issue.message}`);
  return { merge: null, mergeProblems };
}

export function readMergeBlock(doc: unknown): MergeFileRead | Record<string, never> {
  const block = doc && typeof doc === "object" && !Array.isArray(doc) ? (doc as { merge?: unknown }).merge : undefined;
  if (block === undefined) return {};
  if (!block || typeof block !== "object" || Array.isArray(block))
    return { merge: null, mergeProblems: ["merge: must be a map (require_green_gate, auto_merge, method)"] };
  return readMerge(block as Record<string, unknown>);
}

export function readMarkdownMerge(lines: string[]): MergeFileRead | Record<string, never> {
  let inMerge = false;
  const fields: Record<string, unknown> = {};
  for (const line of lines) {
    const heading = /^(#{1,2})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) inMerge = heading[1].length === 2 && /^merge$/i.test(heading[2]);
    const meta = inMerge && !heading ? /^\s*[-*]\s*([\w ]+?)\s*:\s*`?(.*?)`?\s*$/.exec(line) : null;
    if (meta) fields[meta[1].trim().toLowerCase().replace(/\s+/g, "_")] = meta[2];
  }
  return Object.keys(fields).length ? readMerge(fields) : {};
}

export function mergeYamlBlock(merge: MergePolicy | undefined): { merge?: Record<string, unknown> } {
  if (!merge) return {};
  return { merge: { require_green_gate: merge.requireGreenGate, auto_merge: merge.autoMerge, method: merge.method } };
}

export function mergeMarkdownSection(merge: MergePolicy | undefined): string[] {
  if (!merge) return [];
  const yes = (v: boolean) => (v ? "yes" : "no");
  return [
    "## Merge",
    "",
    `- require_green_gate: ${yes(merge.requireGreenGate)}`,
    `- auto_merge: ${yes(merge.autoMerge)}`,
    `- method: ${merge.method}`,
    "",
  ];
}
