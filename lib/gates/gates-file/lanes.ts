// The Work's lanes in gates files: `lanes:` beside `gates:` in YAML, and a `## Lanes` section holding the
// same `lanes:` document in one ```yaml fence in Markdown. A stage's checks are written as the file's own
// entries (run:, use: + with:, timeout: 15m…), so they follow every rule of the Work's checks. Import keeps
// the lanes only when all of them pass (a lane half-read would run other stages than the file says) and
// lists every problem by its position; export writes what the Work has.
import YAML from "yaml";
import type { Check } from "../check-schema";
import { ZLanes, type Lane } from "../lanes";
import { toChecks, yamlEntryOf, yamlRaws } from "./entries";

export type LanesFileRead = { lanes: Lane[] | null; laneProblems: string[] };

const STAGE_KEYS = new Set(["id", "name", "output", "skill", "max_attempts", "checks"]);
const LANE_KEYS = new Set(["id", "name", "stages"]);
const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

// Positions as a person counts them: "lane 1 stage 2 checks 3 with.path".
function where(path: readonly PropertyKey[]): string {
  const words: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const p = path[i];
    const next = path[i + 1];
    if ((p === "stages" || p === "checks") && typeof next === "number") {
      words.push(`${p === "stages" ? "stage" : "check"} ${next + 1}`);
      i++;
    } else if (typeof p === "number") words.push(`lane ${p + 1}`);
    else words.push(p === "maxAttempts" ? "max_attempts" : String(p));
  }
  return words.join(" ");
}

function readLanes(list: unknown): LanesFileRead {
  if (!Array.isArray(list))
    return { lanes: null, laneProblems: ["lanes: must be a list of {id, name, stages: [{id, name, checks}]}"] };
  const problems: string[] = [];
  const candidate = list.map((lane, li) => {
    if (!isMap(lane)) return lane;
    for (const key of Object.keys(lane))
      if (!LANE_KEYS.has(key)) problems.push(`lanes: lane ${li + 1}: unknown field: ${key} (known: id, name, stages)`);
    const stages = Array.isArray(lane.stages)
      ? lane.stages.map((stage, si) => {
          if (!isMap(stage)) return stage;
          const at = `lanes: lane ${li + 1} stage ${si + 1}`;
          for (const key of Object.keys(stage))
            if (!STAGE_KEYS.has(key))
              problems.push(`${at}: unknown field: ${key} (known: ${[...STAGE_KEYS].join(", ")})`);
          const { max_attempts, checks, ...rest } = stage;
          let read: (Check | null)[] | unknown = checks;
          if (Array.isArray(checks)) {
            const entries = toChecks(yamlRaws(checks));
            for (const [ci, entry] of entries.entries())
              for (const problem of entry.problems) problems.push(`${at} check ${ci + 1}: ${problem}`);
            read = entries.map((e) => e.check);
          }
          return {
            ...rest,
            ...(max_attempts !== undefined ? { maxAttempts: max_attempts } : {}),
            checks: read,
          };
        })
      : lane.stages;
    return { ...lane, stages };
  });
  if (problems.length > 0) return { lanes: null, laneProblems: problems };
  const parsed = ZLanes.safeParse(candidate);
  if (parsed.success) return { lanes: parsed.data, laneProblems: [] };
  return {
    lanes: null,
    laneProblems: parsed.error.issues.map((i) => `lanes: ${where(i.path) || "the list"}: ${i.message}`),
  };
}

export function readLanesBlock(doc: unknown): LanesFileRead | Record<string, never> {
  const block = isMap(doc) ? doc.lanes : undefined;
  return block === undefined ? {} : readLanes(block);
}

function lanesFileValue(lanes: readonly Lane[]) {
  return lanes.map((lane) => ({
    id: lane.id,
    name: lane.name,
    stages: lane.stages.map((s) => ({
      id: s.id,
      name: s.name,
      ...(s.output !== undefined ? { output: s.output } : {}),
      ...(s.skill !== undefined ? { skill: s.skill } : {}),
      ...(s.maxAttempts !== undefined ? { max_attempts: s.maxAttempts } : {}),
      checks: s.checks.map(yamlEntryOf),
    })),
  }));
}

export function lanesYamlBlock(lanes: readonly Lane[] | undefined): { lanes?: unknown } {
  return lanes?.length ? { lanes: lanesFileValue(lanes) } : {};
}

// `## Lanes`: one ```yaml fence holding `lanes:` (the fence is as long as the YAML needs).
export function lanesMarkdownSection(lanes: readonly Lane[] | undefined): string[] {
  if (!lanes?.length) return [];
  const body = YAML.stringify({ lanes: lanesFileValue(lanes) }).trimEnd();
  const fence = "`".repeat(Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length)) + 1);
  return ["## Lanes", "", `${fence}yaml`, body, fence, ""];
}

// A section's lines as markdown.ts reads them (fence: where the line is in a fenced block).
type SectionLine = { text: string; fence: null | "open" | "code" | "close" };

export function readMarkdownLanes(section: readonly SectionLine[] | undefined): LanesFileRead | Record<string, never> {
  if (!section) return {};
  const code = section.filter((l) => l.fence === "code").map((l) => l.text);
  if (code.length === 0) return { lanes: null, laneProblems: ["lanes: put the lanes in one ```yaml block (lanes: …)"] };
  let doc: unknown;
  try {
    doc = YAML.parse(code.join("\n"));
  } catch (error) {
    return { lanes: null, laneProblems: [`lanes: not valid YAML: ${(error as Error).message.split("\n")[0]}`] };
  }
  return isMap(doc) && "lanes" in doc ? readLanes(doc.lanes) : readLanes(doc);
}
