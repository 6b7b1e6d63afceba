import { describe, expect, it } from "vitest";
import { ZCheckList, ZTaskCheckList, type Check, type TaskCheckEntry } from "./check-schema";
import {
  findUnmatchedSuppressions,
  resolveChecks,
  resolveInherited,
  resolveMaxAttempts,
  timeoutOf,
} from "./merge-checks";

const def = (id: string, extra: Partial<Check> = {}): Check => ({
  id,
  name: `${id} (default)`,
  kind: "test",
  command: `default ${id}`,
  required: true,
  ...extra,
});
const entry = (id: string, extra: Partial<Check> & { disabled?: false } = {}): TaskCheckEntry => ({
  id,
  name: `${id} (task)`,
  kind: "custom",
  command: `task ${id}`,
  required: false,
  ...extra,
});
const off = (id: string): TaskCheckEntry => ({ id, disabled: true });

const defaults: Check[] = [
  def("lint", { kind: "lint" }),
  def("unit", { timeoutSec: 120, cwd: "pkg" }),
  def("build", { kind: "build" }),
];

const idsAndSources = (r: ReturnType<typeof resolveChecks>) => r.checks.map((c) => `${c.id}:${c.source}`);

describe("resolveChecks", () => {
  it("acceptanceChecks null → the defaults untouched, all inherited", () => {
    const r = resolveChecks(defaults, null);
    expect(r.checks).toEqual(defaults.map((d) => ({ ...d, source: "inherited" })));
    expect(r.suppressed).toEqual([]);
    expect(r.staleSuppressions).toEqual([]);
  });

  it("an empty list merges nothing over the defaults: same as null", () => {
    expect(resolveChecks(defaults, [])).toEqual(resolveChecks(defaults, null));
  });

  it.each<[string, Check[], TaskCheckEntry[] | null, string[], string[], string[]]>([
    ["no defaults, null", [], null, [], [], []],
    ["no defaults, empty list", [], [], [], [], []],
    ["no defaults, new entries are added in task order", [], [entry("b"), entry("a")], ["b:added", "a:added"], [], []],
    [
      "replace the middle default in place",
      defaults,
      [entry("unit")],
      ["lint:inherited", "unit:overridden", "build:inherited"],
      [],
      [],
    ],
    [
      "replace the first default in place",
      defaults,
      [entry("lint")],
      ["lint:overridden", "unit:inherited", "build:inherited"],
      [],
      [],
    ],
    [
      "task order does not move replaced defaults",
      defaults,
      [entry("build"), entry("lint")],
      ["lint:overridden", "unit:inherited", "build:overridden"],
      [],
      [],
    ],
    ["suppress a default", defaults, [off("unit")], ["lint:inherited", "build:inherited"], ["unit"], []],
    ["suppress every default", defaults, [off("build"), off("lint"), off("unit")], [], ["lint", "unit", "build"], []],
    [
      "new ids come after the defaults, in the task's order",
      defaults,
      [entry("zeta"), entry("alpha")],
      ["lint:inherited", "unit:inherited", "build:inherited", "zeta:added", "alpha:added"],
      [],
      [],
    ],
    [
      "new ids listed before a replacement still come after every default",
      defaults,
      [entry("e2e"), entry("unit"), entry("docs")],
      ["lint:inherited", "unit:overridden", "build:inherited", "e2e:added", "docs:added"],
      [],
      [],
    ],
    [
      "replace, suppress and add together",
      defaults,
      [entry("e2e"), off("lint"), entry("build")],
      ["unit:inherited", "build:overridden", "e2e:added"],
      ["lint"],
      [],
    ],
    [
      "a stale suppression is ignored and reported",
      defaults,
      [off("removed")],
      ["lint:inherited", "unit:inherited", "build:inherited"],
      [],
      ["removed"],
    ],
    [
      "stale suppressions are reported in task order, next to live ones",
      defaults,
      [off("gone-2"), off("unit"), off("gone-1")],
      ["lint:inherited", "build:inherited"],
      ["unit"],
      ["gone-2", "gone-1"],
    ],
    ["with no defaults every suppression is stale", [], [off("x"), entry("y")], ["y:added"], [], ["x"]],
  ])("%s", (_label, defs, entries, expected, suppressed, stale) => {
    const r = resolveChecks(defs, entries);
    expect(idsAndSources(r)).toEqual(expected);
    expect(r.suppressed).toEqual(suppressed);
    expect(r.staleSuppressions).toEqual(stale);
  });

  it("a replacement is the whole task entry: nothing of the default leaks into it", () => {
    const replacement = entry("unit", { command: "pytest -q" });
    const [, unit] = resolveChecks(defaults, [replacement]).checks;
    expect(unit).toEqual({ ...replacement, source: "overridden" });
    // The default had timeoutSec and cwd; the replacement does not.
    expect(unit).not.toHaveProperty("timeoutSec");
    expect(unit).not.toHaveProperty("cwd");
  });

  it("an added check is the task entry as written, with source added", () => {
    const added = entry("e2e", { timeoutSec: 900, envPassthrough: ["E2E_TOKEN"], expectStdout: "ok" });
    const checks = resolveChecks(defaults, [added]).checks;
    expect(checks[checks.length - 1]).toEqual({ ...added, source: "added" });
  });

  it("drops `disabled: false` from replaced and added checks", () => {
    const r = resolveChecks(defaults, [entry("unit", { disabled: false }), entry("new", { disabled: false })]);
    for (const c of r.checks) expect(c).not.toHaveProperty("disabled");
    expect(idsAndSources(r)).toEqual(["lint:inherited", "unit:overridden", "build:inherited", "new:added"]);
  });

  it("a disabled entry that keeps its fields still only suppresses", () => {
    const kept: TaskCheckEntry = { ...entry("unit"), disabled: true };
    const r = resolveChecks(defaults, [kept]);
    expect(r.checks.map((c) => c.id)).toEqual(["lint", "build"]);
    expect(r.suppressed).toEqual(["unit"]);
  });

  it("inherited checks are copies of the defaults, fields intact", () => {
    const r = resolveChecks(defaults, [entry("lint")]);
    expect(r.checks[1]).toEqual({ ...defaults[1], source: "inherited" });
    expect(r.checks[1]).not.toBe(defaults[1]);
  });

  it("does not modify its inputs", () => {
    const defs = structuredClone(defaults);
    const entries = [entry("unit", { disabled: false }), off("lint"), entry("extra")];
    const entriesCopy = structuredClone(entries);
    resolveChecks(defs, entries);
    expect(defs).toEqual(defaults);
    expect(entries).toEqual(entriesCopy);
  });

  it("works on lists exactly as the schemas parse them", () => {
    const parsedDefaults = ZCheckList.parse(defaults);
    const parsedEntries = ZTaskCheckList.parse([
      { id: "build", disabled: true },
      { ...entry("unit"), disabled: false },
      entry("e2e"),
    ]);
    const r = resolveChecks(parsedDefaults, parsedEntries);
    expect(idsAndSources(r)).toEqual(["lint:inherited", "unit:overridden", "e2e:added"]);
    expect(r.suppressed).toEqual(["build"]);
  });
});

describe("findUnmatchedSuppressions", () => {
  it.each<[string, Check[], TaskCheckEntry[] | null, (string | number)[][]]>([
    ["null entries", defaults, null, []],
    ["empty entries", defaults, [], []],
    ["suppressions that match defaults", defaults, [off("lint"), off("build")], []],
    ["replacements and additions are never unmatched suppressions", defaults, [entry("unit"), entry("brand-new")], []],
    ["one unmatched suppression", defaults, [entry("unit"), off("nope")], [[1, "id"]]],
    [
      "several unmatched suppressions",
      defaults,
      [off("a"), off("lint"), off("b")],
      [
        [0, "id"],
        [2, "id"],
      ],
    ],
    ["no defaults at all", [], [off("lint")], [[0, "id"]]],
  ])("%s", (_label, defs, entries, paths) => {
    expect(findUnmatchedSuppressions(defs, entries).map((i) => i.path)).toEqual(paths);
  });

  it("names the id and says there is nothing to suppress", () => {
    const [issue] = findUnmatchedSuppressions(defaults, [off("flaky-e2e")]);
    expect(issue.message).toContain('"flaky-e2e"');
    expect(issue.message).toMatch(/matches no check in the Work's defaults/);
  });

  it("agrees with resolveChecks: what is refused on save is what would be stale at dispatch", () => {
    const entries = [off("lint"), off("x"), entry("y"), off("z")];
    const refused = findUnmatchedSuppressions(defaults, entries).map((i) => entries[i.path[0] as number].id);
    expect(refused).toEqual(resolveChecks(defaults, entries).staleSuppressions);
  });
});

describe("resolveMaxAttempts", () => {
  it.each([
    [3, null, 3],
    [1, null, 1],
    [5, null, 5],
    [3, 1, 1],
    [3, 5, 5],
    [1, 5, 5],
    [5, 2, 2],
  ])("Work %d, task %j → %d", (work, task, expected) => {
    expect(resolveMaxAttempts({ maxGateAttempts: work }, { maxGateAttempts: task })).toBe(expected);
  });
});

describe("resolveInherited", () => {
  it.each<[unknown, unknown, unknown]>([
    ["./agent.sh", null, "./agent.sh"],
    ["./agent.sh", "./other.sh", "./other.sh"],
    [null, null, null],
    [null, "./task-agent.sh", "./task-agent.sh"],
    [600, null, 600],
    [600, 30, 30],
    [null, 30, 30],
  ])("Work %j, task %j → %j", (work, task, expected) => {
    expect(resolveInherited(work, task)).toBe(expected);
  });

  it("only null inherits: a falsy task value still wins", () => {
    expect(resolveInherited<number>(600, 0)).toBe(0);
    expect(resolveInherited<boolean>(true, false)).toBe(false);
  });
});

describe("timeoutOf", () => {
  it.each([
    [{}, 600],
    [{ timeoutSec: undefined }, 600],
    [{ timeoutSec: 1 }, 1],
    [{ timeoutSec: 3600 }, 3600],
  ])("%j → %d", (c, expected) => {
    expect(timeoutOf(c)).toBe(expected);
  });
});

describe("executor and hidden through merging", () => {
  it("a default's executor and hidden are inherited; a task entry's replace them", () => {
    const defs = [def("smoke", { executor: "agent" }), def("secret", { hidden: true })];
    const inherited = resolveChecks(defs, null).checks;
    expect(inherited.map((c) => [c.id, c.executor, c.hidden])).toEqual([
      ["smoke", "agent", undefined],
      ["secret", undefined, true],
    ]);
    const replaced = resolveChecks(defs, [entry("secret"), entry("extra", { executor: "agent" })]).checks;
    expect(replaced.map((c) => [c.id, c.executor, c.hidden])).toEqual([
      ["smoke", "agent", undefined],
      ["secret", undefined, undefined],
      ["extra", "agent", undefined],
    ]);
  });
});
