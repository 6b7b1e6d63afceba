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
