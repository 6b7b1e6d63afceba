// Which files decide what a check runs, and how the start commit's version is laid back (package.json:
// only the parts that matter; TOML/INI: only the pytest tables).
import { describe, expect, it } from "vitest";
import { partOf, restoreParts } from "./gate-file-parts";
import { editedGateFiles, gateFilesOf } from "./gate-files";
import { globMatcher } from "./globs";

const files = (map: Record<string, string>) => (file: string) => map[file] ?? null;
const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: "p", scripts, ...extra }, null, 2);

describe("gateFilesOf", () => {
  it("npm test: the test script, its pre/post scripts, and what they call in turn", () => {
    const read = files({
      "package.json": pkg({ pretest: "node scripts/setup.js", test: "npm run unit", unit: "node --test test/" }),
      "scripts/setup.js": "",
    });
    const labels = gateFilesOf({ command: "npm test" }, read).refs.map((r) => r.label);
    expect(labels).toEqual([
      "scripts.pretest in package.json",
      "scripts/setup.js",
      "scripts.test in package.json",
      "scripts.unit in package.json",
    ]);
  });

  it("yarn x and pnpm run x in a cd'd folder read that folder's package.json", () => {
    const read = files({ "web/package.json": pkg({ check: "jest" }) });
    for (const command of ["cd web && yarn check", "cd web && pnpm run check", "npm --prefix web run check"])
      expect(gateFilesOf({ command }, read).refs.map((r) => r.label)).toContain("scripts.check in web/package.json");
  });

  it("make test: the Makefile, and the runner configuration of what its recipe runs", () => {
    const read = files({
      Makefile: "all: test\n\ntest:\n\t@python3 -m pytest -q\n",
      "pyproject.toml": "[tool.pytest.ini_options]\n",
    });
    const found = gateFilesOf({ command: "make test" }, read);
    expect(found.refs.map((r) => r.label)).toEqual(["Makefile (target test)", "[tool.pytest…] in pyproject.toml"]);
    expect(found.globs.map((g) => g.glob)).toContain("**/conftest.py");
  });

  it("a file the command runs is a gate file; one it only reads (grep) is not", () => {
    const read = files({ "src/price.js": "" });
    const refs = gateFilesOf({ command: "node --check src/price.js && ! grep -n console.log src/price.js" }, read).refs;
    expect(refs.map((r) => r.path)).toEqual(["src/price.js"]);
  });

  it("a test check whose runner cannot be told counts every runner's configuration", () => {
    const globs = gateFilesOf({ command: "./run-tests", kind: "test" }, files({})).globs.map((g) => g.glob);
    expect(globs).toEqual(expect.arrayContaining(["jest.config.*", "vitest.config.*", ".mocharc.*", "pytest.ini"]));
  });
});

describe("editedGateFiles and restoreParts", () => {
  const start = pkg({ test: "node --test test/" }, { dependencies: {} });
  const narrowed = pkg({ test: "node --test test/other.test.js" }, { dependencies: {} });
  const withDep = pkg({ test: "node --test test/" }, { dependencies: { leftpad: "1.0.0" } });

  it("a dependency added to package.json is no edit of the gate; a narrowed test script is", () => {
    const gateFiles = new Map([["unit", gateFilesOf({ command: "npm test" }, files({ "package.json": start }))]]);
    const edited = (head: string) =>
      editedGateFiles({
        changes: [{ status: "M", path: "package.json" }],
        gateFiles,
        readStart: files({ "package.json": start }),
        readHead: files({ "package.json": head }),
        matches: (g, f) => globMatcher([g])(f),
      });
    expect(edited(withDep)).toEqual([]);
    expect(edited(narrowed)).toEqual([
      { path: "package.json", parts: ["scripts.test"], labels: ["scripts.test in package.json"], checks: ["unit"] },
    ]);
  });

  it("restores only the edited parts: the change's dependency stays", () => {
    const head = pkg({ test: "node --test test/other.test.js" }, { dependencies: { leftpad: "1.0.0" } });
    const restored = JSON.parse(restoreParts(start, head, ["scripts.test"])!);
    expect(restored).toEqual({ name: "p", scripts: { test: "node --test test/" }, dependencies: { leftpad: "1.0.0" } });
  });

  it("a pytest table of pyproject.toml is laid back alone", () => {
    const was = '[project]\nname = "p"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n';
    const now =
      '[project]\nname = "p"\ndependencies = ["x"]\n\n[tool.pytest.ini_options]\naddopts = "-q --deselect t.py::a"\n';
    expect(partOf(was, "[tool.pytest")).not.toBe(partOf(now, "[tool.pytest"));
    expect(restoreParts(was, now, ["[tool.pytest"])).toBe(
      '[project]\nname = "p"\ndependencies = ["x"]\n\n[tool.pytest.ini_options]\naddopts = "-q"\n',
    );
  });

  it("a file that was not there at the start is removed (null)", () => {
    expect(restoreParts(null, "module.exports = {}", [null])).toBeNull();
  });
});

it("a test file the check's script runs is a test, not a gate file", () => {
  const read = files({ "package.json": pkg({ test: "node test/price.test.js" }), "test/price.test.js": "" });
  const refs = gateFilesOf({ command: "npm test" }, read, (f) => f.startsWith("test/")).refs;
  expect(refs.map((r) => r.label)).toEqual(["scripts.test in package.json"]);
});

// A jest `testPathIgnorePatterns` that drops the failing test's file, wherever jest reads it from: each is an
// edit of the gate (re-run with the original), and an honest change beside it is not.
describe("jest's testPathIgnorePatterns (issue 21)", () => {
  const JEST_CONFIG = 'module.exports = { testPathIgnorePatterns: ["/node_modules/", "/e2e/"] };\n';
  const IGNORING = 'module.exports = { testPathIgnorePatterns: ["/node_modules/", "/e2e/", "price"] };\n';
  const withJest = (jest: Record<string, unknown>, deps: Record<string, string> = {}) =>
    pkg({ test: "jest" }, { jest, dependencies: deps });
  const cases: {
    name: string;
    command: string;
    start: Record<string, string>;
    head: Record<string, string>;
    labels: string[];
  }[] = [
    {
      name: "added to jest.config.js",
      command: "npx jest",
      start: { "package.json": pkg({}), "jest.config.js": JEST_CONFIG },
      head: { "package.json": pkg({}), "jest.config.js": IGNORING },
      labels: ["jest.config.js"],
    },
    {
      name: "added to the jest key of package.json, run through npm test",
      command: "npm test",
      start: { "package.json": withJest({ testPathIgnorePatterns: ["/e2e/"] }) },
      head: { "package.json": withJest({ testPathIgnorePatterns: ["/e2e/", "price"] }) },
      labels: ["jest in package.json"],
    },
    {
      name: "added to the file `jest -c` names",
      command: "jest -c config/jest.unit.js",
      start: { "package.json": pkg({}), "config/jest.unit.js": JEST_CONFIG },
      head: { "package.json": pkg({}), "config/jest.unit.js": IGNORING },
      labels: ["config/jest.unit.js"],
    },
    {
      name: "added to the file `--config=` names, in the check's folder",
      command: "cd web && npx jest --config=jest.ci.config.js",
      start: { "web/jest.ci.config.js": JEST_CONFIG },
      head: { "web/jest.ci.config.js": IGNORING },
      labels: ["web/jest.ci.config.js"],
    },
    {
      name: "passed on the command line of the test script",
      command: "npm test",
      start: { "package.json": pkg({ test: "jest --testPathIgnorePatterns e2e/" }) },
      head: { "package.json": pkg({ test: "jest --testPathIgnorePatterns e2e/ price" }) },
      labels: ["scripts.test in package.json"],
    },
    {
      name: "honest twin: a dependency added beside an untouched jest key",
      command: "npm test",
      start: { "package.json": withJest({ testPathIgnorePatterns: ["/e2e/"] }) },
      head: { "package.json": withJest({ testPathIgnorePatterns: ["/e2e/"] }, { leftpad: "1.0.0" }) },
      labels: [],
    },
    {
      name: "honest twin: a config file jest is not told to read",
      command: "jest -c config/jest.unit.js",
      start: { "config/jest.unit.js": JEST_CONFIG, "config/jest.other.js": JEST_CONFIG },
      head: { "config/jest.unit.js": JEST_CONFIG, "config/jest.other.js": IGNORING },
      labels: [],
    },
  ];
  it.each(cases)("$name", ({ command, start, head, labels }) => {
    const gateFiles = new Map([["unit", gateFilesOf({ command, kind: "test" }, files(start))]]);
    const changed = Object.keys(head).filter((f) => head[f] !== start[f]);
    const edited = editedGateFiles({
      changes: changed.map((path) => ({ status: "M" as const, path })),
      gateFiles,
      readStart: files(start),
      readHead: files(head),
      matches: (g, f) => globMatcher([g])(f),
    });
    expect(edited.flatMap((e) => e.labels)).toEqual(labels);
  });

  it("lays back the jest key alone: the change's dependency stays", () => {
    const was = withJest({ testPathIgnorePatterns: ["/e2e/"] });
    const now = withJest({ testPathIgnorePatterns: ["/e2e/", "price"] }, { leftpad: "1.0.0" });
    expect(JSON.parse(restoreParts(was, now, ["jest"])!)).toMatchObject({
      jest: { testPathIgnorePatterns: ["/e2e/"] },
      dependencies: { leftpad: "1.0.0" },
    });
  });
});
