// The Markdown shape of a gates file, a runbook: `## Code Checks`, then `### id — name` and one fenced block
// per check; `## Proof`, `## Check sources`, `## Merge`, `## Sandbox` and `## Lanes` sections beside it.
// Every section is read by one fence-aware reader (readSections): a heading inside a fenced block is text,
// never a section.
import YAML from "yaml";
import { formatDurationSec } from "../duration";
import { readFence, readFrontmatter } from "../runbook-fences";
import type { Check } from "../check-schema";
import { toChecks, YAML_KEYS, type Raw } from "./entries";
import {
  mergeMarkdownSection,
  proofFileFields,
  readMarkdownCheckSources,
  readMarkdownMerge,
  readMarkdownProof,
  type GatesFileSettings,
  type ImportResult,
} from "./sections";
import { readMarkdownSandbox, sandboxMarkdownSection } from "./sandbox";
import { lanesMarkdownSection, readMarkdownLanes } from "./lanes";

// One line of a section: outside any fenced block (fence null), or a fence's opening line (with its info
// string), a line of its code, or its closing line.
export type SectionLine = { text: string; fence: null | "open" | "code" | "close"; info?: string };

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const OPENING = /^\s{0,3}(`{3,}|~{3,})(.*)$/;

// The level-2 sections of a document (`## Title`, keyed by the title in lower case, spaces collapsed; two
// sections with one title read as one), each with its lines. Headings count only outside fenced blocks, and
// a fence closes only with the same character, at least as long, and nothing after it (CommonMark). A
// level-1 heading ends a section; text before the first section belongs to none.
export function readSections(lines: readonly string[]): Map<string, SectionLine[]> {
  const sections = new Map<string, SectionLine[]>();
  let current: SectionLine[] | null = null;
  let fence: { char: string; length: number } | null = null;
  for (const text of lines) {
    if (fence) {
      const isClosing = new RegExp(`^\\s{0,3}\\${fence.char}{${fence.length},}\\s*$`).test(text);
      if (isClosing) fence = null;
      current?.push({ text, fence: isClosing ? "close" : "code" });
      continue;
    }
    const heading = HEADING.exec(text);
    if (heading && heading[1].length <= 2) {
      const title = heading[2].toLowerCase().replace(/\s+/g, " ");
      current = heading[1].length === 2 ? (sections.get(title) ?? []) : null;
      if (current) sections.set(title, current);
      continue;
    }
    const opening = OPENING.exec(text);
    if (opening) {
      fence = { char: opening[1][0], length: opening[1].length };
      current?.push({ text, fence: "open", info: opening[2].trim() });
    } else current?.push({ text, fence: null });
  }
  return sections;
}

// A section's lines outside its fenced blocks (undefined: the document has no such section).
function plainLines(section: readonly SectionLine[] | undefined): string[] | undefined {
  return section?.filter((l) => l.fence === null).map((l) => l.text);
}

type MdBlock = {
  heading: string | null;
  body: { text: string; inFence: boolean }[];
  fences: { info: string; code: string[] }[];
  isOpen: boolean;
};

// The "## Code Checks" section: a block per `###` heading, with its `- key: value` lines and its fences.
export function parseMarkdown(text: string): ImportResult {
  const front = readFrontmatter(text.split(/\r?\n/));
  const sections = readSections(front.rest);
  const section = sections.get("code checks");
  const hasSection = section !== undefined;
  const blocks: MdBlock[] = [];
  for (const line of section ?? []) {
    if (line.fence === null) {
      const heading = HEADING.exec(line.text);
      if (heading && heading[1].length === 3) blocks.push({ heading: heading[2], body: [], fences: [], isOpen: false });
      else blocks.at(-1)?.body.push({ text: line.text, inFence: false });
    } else if (line.fence === "open") {
      if (blocks.length === 0) blocks.push({ heading: null, body: [], fences: [], isOpen: false });
      blocks.at(-1)!.fences.push({ info: line.info ?? "", code: [] });
      blocks.at(-1)!.isOpen = true;
    } else if (line.fence === "code") blocks.at(-1)!.fences.at(-1)!.code.push(line.text);
    else blocks.at(-1)!.isOpen = false;
  }
  const fileNotes = front.problems.length ? { fileNotes: front.problems } : {};
  if (!hasSection) return { format: "markdown", entries: [], fileProblem: "no “## Code Checks” section", ...fileNotes };
  const lanesRead = readMarkdownLanes(sections.get("lanes"));
  // A file of lanes alone (a Work whose checks are all its stages') is a gates file too.
  if (blocks.length === 0 && !lanesRead.lanes)
    return {
      format: "markdown",
      entries: [],
      fileProblem: "the “## Code Checks” section has no “### id — name” headings",
      ...lanesRead,
    };
  const raws = blocks.map((block): Raw => {
    const problems: string[] = [];
    const fields: Record<string, unknown> = {};
    if (block.heading === null) problems.push("a command before the first “### id — name” heading: give it a heading");
    else {
      // "id — name" (an em or en dash), or "id - name" when what precedes the hyphen is an id.
      const dashed = /^(.+?)\s+[—–]\s+(.+)$/.exec(block.heading);
      const hyphened = /^(\S+)\s+-\s+(.+)$/.exec(block.heading);
      const split = dashed ?? (hyphened && CHECK_ID_LIKE.test(hyphened[1]) ? hyphened : null);
      if (split) {
        fields.id = split[1].trim();
        fields.name = split[2].trim();
      } else fields.name = block.heading;
    }
    for (const { text: line } of block.body) {
      const meta = /^\s*[-*]\s*([\w ]+?)\s*:\s*(.+?)\s*$/.exec(line);
      if (!meta) continue;
      const key = meta[1].trim().toLowerCase().replace(/\s+/g, "_");
      if (!YAML_KEYS.has(key) || key === "run" || key === "id" || key === "name")
        problems.push(`unknown field: ${meta[1].trim()}`);
      else fields[key === "env_passthrough" ? "env" : key] = meta[2].startsWith('"') ? safeJson(meta[2]) : meta[2];
    }
    if (block.isOpen && block.fences.length === 1) problems.push("a fenced block is not closed");
    // Only the first fence under a heading counts: later ones (an example output, a note) are not checks.
    if (block.fences.length === 0)
      problems.push(
        "no fenced command block: put the command in ```bash … ``` " +
          "(```agent for an instruction, ```yaml with use: for a built-in)",
      );
    else {
      const read = readFence(block.fences[0].info, block.fences[0].code);
      if (
        typeof fields.executor === "string" &&
        read.fields.executor &&
        fields.executor.trim().toLowerCase() !== read.fields.executor
      )
        problems.push(`executor: the fence says ${read.fields.executor}, the list says ${fields.executor}`);
      problems.push(...read.problems);
      Object.assign(fields, read.fields);
    }
    return { label: block.heading ?? "(no heading)", fields, problems };
  });
  return {
    format: "markdown",
    entries: toChecks(raws, { timeoutSec: front.defaultTimeoutSec }),
    fileProblem: null,
    ...readMarkdownProof(plainLines(sections.get("proof"))),
    ...readMarkdownCheckSources(plainLines(sections.get("check sources"))),
    ...readMarkdownMerge(plainLines(sections.get("merge"))),
    ...readMarkdownSandbox(plainLines(sections.get("sandbox"))),
    ...lanesRead,
    ...fileNotes,
  };
}

const CHECK_ID_LIKE = /^[a-z0-9][a-z0-9-_]{0,40}$/;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function toGatesMarkdown(checks: readonly Check[], settings: GatesFileSettings = {}): string {
  const { proof, checkSources, merge, sandbox, lanes } = settings;
  const parts = ["## Code Checks", ""];
  for (const c of checks) {
    parts.push(`### ${c.id} — ${c.name}`, "");
    parts.push(`- kind: ${c.kind}`, `- required: ${c.required ? "yes" : "no"}`);
    if (c.timeoutSec !== undefined) parts.push(`- timeout: ${formatDurationSec(c.timeoutSec)}`);
    if (c.expectExit !== undefined) parts.push(`- expect_exit: ${c.expectExit}`);
    if (c.expectStdout !== undefined) {
      const out = c.expectStdout;
      const isPlain = /^\S(.*\S)?$/.test(out) && !out.includes("\n") && !out.startsWith('"');
      parts.push(`- expect_stdout: ${isPlain ? out : JSON.stringify(out)}`);
    }
    if (c.cwd !== undefined) parts.push(`- cwd: ${c.cwd}`);
    if (c.junit !== undefined) parts.push(`- junit: \`${c.junit}\``);
    if (c.envPassthrough?.length) parts.push(`- env: ${c.envPassthrough.join(", ")}`);
    if (c.provesChange !== undefined) parts.push(`- proves_change: ${c.provesChange ? "yes" : "no"}`);
    if (c.hidden !== undefined) parts.push(`- hidden: ${c.hidden ? "yes" : "no"}`);
    // The fence says what runs it: yaml for a built-in, agent for an agent check, bash for a command.
    const body = c.use !== undefined ? YAML.stringify({ use: c.use, with: c.with ?? {} }).trimEnd() : (c.command ?? "");
    const lang =
      c.use !== undefined
        ? "yaml"
        : c.executor === "agent"
          ? "agent"
          : c.executor === "platform"
            ? "bash executor=platform"
            : "bash";
    const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
    const fence = "`".repeat(longest + 1);
    parts.push("", `${fence}${lang}`, body, fence, "");
  }
  if (proof && Object.keys(proof).length) {
    parts.push("## Proof", "");
    for (const [key, value] of Object.entries(proofFileFields(proof)))
      parts.push(`- ${key}: ${Array.isArray(value) ? value.map((g) => `\`${g}\``).join(", ") : value}`);
    parts.push("");
  }
  if (checkSources?.length) {
    parts.push("## Check sources", "");
    for (const c of checkSources)
      parts.push(`- ${c.name}: \`${c.url}\` at \`${c.ref}\`${c.secret ? ` (secret \`${c.secret}\`)` : ""}`);
    parts.push("");
  }
  parts.push(...mergeMarkdownSection(merge));
  parts.push(...sandboxMarkdownSection(sandbox));
  parts.push(...lanesMarkdownSection(lanes));
  return parts.join("\n");
}
