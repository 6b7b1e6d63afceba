import { describe, expect, it } from "vitest";
import { selectTests, type Selection } from "./test-selection";

const reader =
  (files: Record<string, string>) =>
  (file: string): string | null =>
    files[file] ?? null;

const select = (command: string, files: string[], tree: Record<string, string> = {}, cwd?: string): Selection =>
  selectTests({ command, cwd, files, read: reader(tree) });

describe("node --test", () => {
  it("runs only the named files, with the command's own options kept", () => {
    expect(select("node --test --test-reporter tap", ["test/a.test.js", "src/b.test.mjs"])).toEqual({
      kind: "selected",
      command: "node --test --test-reporter tap test/a.test.js src/b.test.mjs",
      runner: "node --test",
      files: ["test/a.test.js", "src/b.test.mjs"],
    });
  });

  it("keeps to the folders and globs the command names", () => {
    expect(select("node --test test/unit", ["test/unit/a.test.js"])).toMatchObject({
      command: "node --test test/unit/a.test.js",
    });
    expect(select("node --test 'test/**/*.spec.js'", ["test/x/a.spec.js"])).toMatchObject({ kind: "selected" });
    expect(select("node --test test/unit", ["test/e2e/a.test.js"])).toEqual({
      kind: "whole",
      reason: "test/e2e/a.test.js is not a file `node --test` runs with these arguments",
    });
  });

  it("a file node:test would not find by its naming rule is not selected", () => {
    expect(select("node --test", ["src/helpers.js"])).toMatchObject({ kind: "whole" });
    expect(select("node --test", ["lib/a.test.ts"])).toMatchObject({ kind: "whole" });
  });

  it("through an npm script: npm exec runs the rewritten script in the package's folder", () => {
    const tree = { "package.json": JSON.stringify({ scripts: { test: "node --test" } }) };
    expect(select("npm test", ["test/a.test.js"], tree)).toMatchObject({
      kind: "selected",
      command: "npm exec -c 'node --test test/a.test.js'",
    });
    const nested = {
      "app/package.json": JSON.stringify({ scripts: { test: "npm run unit", unit: "CI=1 node --test test" } }),
    };
    expect(select("cd app && npm test", ["app/test/a.test.js"], nested)).toMatchObject({
      command: "cd 'app' && npm exec -c 'CI=1 node --test test/a.test.js'",
    });
  });

  it("a pre script, arguments to the script, two commands: the whole command, saying why", () => {
    const pre = { "package.json": JSON.stringify({ scripts: { pretest: "tsc", test: "node --test" } }) };
    expect(select("npm test", ["test/a.test.js"], pre)).toEqual({
      kind: "whole",
      reason: 'the npm script "test" has a pretest script',
    });
    expect(select("npm test -- --watch", ["test/a.test.js"], pre)).toMatchObject({ kind: "whole" });
    expect(select("node --test && node lint.js", ["test/a.test.js"])).toEqual({
      kind: "whole",
      reason: "the command runs more than one command, or one after a cd it cannot follow",
    });
    expect(select("node --test $FILES", ["test/a.test.js"])).toMatchObject({ kind: "whole" });
    expect(select("make test", ["test/a.test.js"])).toEqual({
      kind: "whole",
      reason: "make is not a test runner Gatehouse can select files for",
    });
    expect(select("node --test", [])).toEqual({ kind: "whole", reason: "there are no test files to select" });
  });

  it("a check's cwd: files are named from the folder the command runs in", () => {
    expect(select("node --test", ["pkg/test/a.test.js"], {}, "pkg")).toMatchObject({
      command: "node --test test/a.test.js",
    });
    expect(select("node --test", ["other/a.test.js"], {}, "pkg")).toEqual({
      kind: "whole",
      reason: "other/a.test.js lies outside the folder the command runs in",
    });
  });
});

describe("pytest", () => {
  it("names the files for pytest and python -m pytest", () => {
    expect(select("python3 -m pytest -q -k 'not slow' tests", ["tests/test_a.py"])).toMatchObject({
      command: "python3 -m pytest -q -k 'not slow' tests/test_a.py",
      runner: "pytest",
    });
    expect(select("pytest", ["test_six.py"])).toMatchObject({ command: "pytest test_six.py" });
  });

  it("a file pytest would not collect, a config that chooses files, node ids: the whole command", () => {
    expect(select("pytest", ["tests/conftest.py"])).toMatchObject({ kind: "whole" });
    expect(select("pytest", ["build/test_a.py"])).toMatchObject({ kind: "whole" });
    expect(select("pytest tests/test_a.py::test_x", ["tests/test_a.py"])).toMatchObject({ kind: "whole" });
    const ini = { "pytest.ini": "[pytest]\ntestpaths = tests\n" };
    expect(select("pytest", ["tests/test_a.py"], ini)).toEqual({ kind: "whole", reason: "pytest.ini sets testpaths" });
    const opts = { "pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-ra -q"\n' };
    expect(select("pytest", ["tests/test_a.py"], opts)).toMatchObject({ kind: "selected" });
  });
});

describe("vitest, jest, mocha", () => {
  it("vitest: the files as filters, inside the command's own filters", () => {
    expect(select("npx vitest run --reporter verbose lib", ["lib/a.test.ts"])).toMatchObject({
      command: "npx vitest run --reporter verbose lib/a.test.ts",
    });
    expect(select("npx vitest run lib", ["e2e/a.test.ts"])).toMatchObject({ kind: "whole" });
    // A helper is no test file of its own: the tests importing it would not run.
    expect(select("npx vitest run", ["lib/a.test.ts", "lib/helpers.ts"])).toMatchObject({ kind: "whole" });
    const config = { "vitest.config.ts": "export default { test: { include: ['spec/**'] } }\n" };
    expect(select("npx vitest run", ["lib/a.test.ts"], config)).toEqual({
      kind: "whole",
      reason: "vitest.config.ts may choose the test files",
    });
  });

  it("jest: each file as an anchored pattern; a command choosing its own files is run whole", () => {
    expect(select("npx jest --ci", ["src/a.test.js"])).toMatchObject({
      command: "npx jest --ci '/src\\/a\\.test\\.js$'",
    });
    expect(select("jest src/unit", ["src/unit/a.test.js"])).toMatchObject({ kind: "whole" });
    expect(select("jest", ["src/__tests__/helpers/make.js"])).toMatchObject({ kind: "selected" });
    expect(select("jest", ["src/fixtures.js"])).toMatchObject({ kind: "whole" });
    const pkg = { "package.json": JSON.stringify({ jest: { testMatch: ["**/*.check.js"] } }) };
    expect(select("jest", ["src/a.test.js"], pkg)).toMatchObject({ kind: "whole" });
  });

  it("mocha: test/ by default, not when a config file may choose", () => {
    expect(select("mocha", ["test/a.js"])).toMatchObject({ command: "mocha test/a.js" });
    expect(select("mocha", ["test/deep/a.js"])).toMatchObject({ kind: "whole" });
    expect(select("mocha --recursive", ["test/deep/a.js"])).toMatchObject({ kind: "selected" });
    expect(select("mocha", ["test/a.js"], { ".mocharc.yml": "spec: x\n" })).toMatchObject({ kind: "whole" });
  });
});
