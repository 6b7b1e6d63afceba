// The Work's sandbox settings in gates files: `sandbox:` beside `gates:` in YAML (agent_network, check_network,
// mounts: [{path, mode}], visible_refs), a `## Sandbox` section of `- key: value` lines in Markdown (mounts as
// `/path` (ro), refs in backticks). The keys come from the registry of Work settings. Import keeps what the
// schemas accept and lists the rest; export writes what the Work has.
import { schemaOf, fileKeys, type SandboxSettings } from "../work-settings";

const KEYS = fileKeys("sandbox");
export type SandboxFileSettings = Partial<SandboxSettings>;
export type SandboxFileRead = { sandbox: SandboxFileSettings | null; sandboxProblems: string[] };

// YAML 1.1 habits: `on`/`off` may have been written as booleans.
const onOff = (value: unknown) => (value === true ? "on" : value === false ? "off" : value);

function readSandbox(fields: Record<string, unknown>): SandboxFileRead {
  const sandbox: Record<string, unknown> = {};
  const sandboxProblems: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const field = KEYS[key];
    if (!field) {
      sandboxProblems.push(`sandbox: unknown field: ${key} (known: ${Object.keys(KEYS).join(", ")})`);
      continue;
    }
    const parsed = schemaOf(field).safeParse(field.endsWith("Network") ? onOff(value) : value);
    if (parsed.success) sandbox[field] = parsed.data;
    else
      for (const issue of parsed.error.issues) {
        // Positions as a person counts them (mounts 1 is the first).
        const where = [key, ...issue.path.map((p) => (typeof p === "number" ? p + 1 : String(p)))].join(" ");
        sandboxProblems.push(`sandbox: ${where}: ${issue.message}`);
      }
  }
  return { sandbox: Object.keys(sandbox).length ? (sandbox as SandboxFileSettings) : null, sandboxProblems };
}

export function readSandboxBlock(doc: unknown): SandboxFileRead | Record<string, never> {
  const block =
    doc && typeof doc === "object" && !Array.isArray(doc) ? (doc as { sandbox?: unknown }).sandbox : undefined;
  if (block === undefined) return {};
  if (!block || typeof block !== "object" || Array.isArray(block))
    return { sandbox: null, sandboxProblems: [`sandbox: must be a map (${Object.keys(KEYS).join(", ")})`] };
  return readSandbox(block as Record<string, unknown>);
}

// `- mounts: \`/opt/tools\` (ro), \`/var/cache/x\` (rw)`; `- visible_refs: \`refs/tags/v*\`, \`release/*\``.
function markdownValue(key: string, text: string): unknown {
  if (key === "mounts")
    return Array.from(text.matchAll(/`([^`]*)`\s*(?:\(([^)]*)\))?/g), (m) => ({ path: m[1], mode: m[2]?.trim() }));
  if (key === "visible_refs") {
    const ticked = Array.from(text.matchAll(/`([^`]*)`/g), (m) => m[1]);
    return ticked.length ? ticked : text.split(/,\s*|\s+/).filter(Boolean);
  }
  return text.replace(/^`|`$/g, "").trim();
}

// The `## Sandbox` section's lines outside its fenced blocks (markdown.ts reads them).
export function readMarkdownSandbox(section: readonly string[] | undefined): SandboxFileRead | Record<string, never> {
  const fields: Record<string, unknown> = {};
  for (const line of section ?? []) {
    const meta = /^\s*[-*]\s*([\w ]+?)\s*:\s*(.*?)\s*$/.exec(line);
    if (!meta) continue;
    const key = meta[1].trim().toLowerCase().replace(/\s+/g, "_");
    fields[key] = markdownValue(key, meta[2]);
  }
  return Object.keys(fields).length ? readSandbox(fields) : {};
}

function fileFields(sandbox: SandboxFileSettings): [string, unknown][] {
  return Object.entries(KEYS).flatMap(([key, field]) => (sandbox[field] === undefined ? [] : [[key, sandbox[field]]]));
}

export function sandboxYamlBlock(sandbox: SandboxFileSettings | undefined): { sandbox?: Record<string, unknown> } {
  if (!sandbox || Object.keys(sandbox).length === 0) return {};
  return { sandbox: Object.fromEntries(fileFields(sandbox)) };
}

export function sandboxMarkdownSection(sandbox: SandboxFileSettings | undefined): string[] {
  if (!sandbox || Object.keys(sandbox).length === 0) return [];
  const lines = fileFields(sandbox).map(([key, value]) => {
    if (key === "mounts") {
      const mounts = value as { path: string; mode: string }[];
      return `- mounts: ${mounts.map((m) => `\`${m.path}\` (${m.mode})`).join(", ")}`;
    }
    if (Array.isArray(value)) return `- ${key}: ${value.map((v) => `\`${v}\``).join(", ")}`;
    return `- ${key}: ${value}`;
  });
  return ["## Sandbox", "", ...lines, ""];
}
