// `_protected` judged against the originals, end to end with the real runners: real git repositories, a
// scripted agent, real `npm test` / node --test, real make, real pytest run again in a scratch worktree
// with the start commit's gate files laid over the change. Each cheat is red and named; its honest twin
// stays green.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunDetail } from "../services/run-detail";
import { SYSTEM_ACTOR } from "../auth/actor";
import { startNextAttempt } from "../services/runs";
import { commitFiles } from "../testing/git-repo";
import { check, createHarness, dispatchAndSettle, makeScenario, settle, type Harness } from "../testing/runner-harness";
import { checkLogPathOf } from "./paths";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

// An agent command writing files (path → content; null deletes) and committing.
function agentWriting(files: Record<string, string | null>): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const writes = Object.entries(files).map(([file, content]) =>
    content === null
      ? `rm -f ${q(file)}`
      : `mkdir -p ${path.posix.dirname(file)} && printf %s ${q(content)} > ${q(file)}`,
  );
  return [...writes, "git add -A", "git commit -qm agent"].join(" && ");
}

function proofOf(detail: RunDetail) {
  return Object.fromEntries(
    detail.attempts[0].results
      .filter((r) => r.checkId.startsWith("_") || r.checkId === "unit" || r.checkId === "lint")
      .map((r) => [r.checkId, { verdict: r.verdict, message: r.message }]),
  );
}
const logOf = (detail: RunDetail, id: string) =>
  fs.readFileSync(checkLogPathOf(h.dataDir, detail.run.id, 1, id), "utf8");

// A node project: a buggy price(), a test of it that fails until it is fixed, and one that passes.
const PRICE_BUGGY = "module.exports = (cents) => cents / 10;\n";
const PRICE_FIXED = "module.exports = (cents) => cents / 100;\n";
const NODE_TESTS = {
  "src/price.js": PRICE_BUGGY,
  "test/price.test.js":
    'const test = require("node:test");\nconst assert = require("node:assert");\nconst price = ' +
    'require("../src/price");\n' +
    'test("converts cents", () => assert.strictEqual(price(250), 2.5));\n',
  "test/other.test.js": 'const test = require("node:test");\ntest("is there", () => {});\n',
};
const pkg = (test: string, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ name: "shop", private: true, scripts: { test }, ...extra }, null, 2)}\n`;
const NPM_PROJECT = { ...NODE_TESTS, "package.json": pkg("node --test test/") };
const NPM_UNIT = check("unit", "npm test", { kind: "test" });

const scenario = (files: Record<string, string>, checks: unknown[], agent: string) =>
  makeScenario(h, { checkDefaults: checks, agentCommand: agent, maxGateAttempts: 1 }, { files });

describe("npm scripts", () => {
  it("`npm test` narrowed in package.json to the passing file: red, naming scripts.test", async () => {
    const agent = agentWriting({ "package.json": pkg("node --test test/other.test.js") });
    const detail = await dispatchAndSettle(h, (await scenario(NPM_PROJECT, [NPM_UNIT], agent)).task.id);
    expect(proofOf(detail).unit.verdict).toBe("passed");
    expect(proofOf(detail)._protected).toEqual({
      verdict: "failed",
      message: '"unit" passes only with its edited gate: scripts.test in package.json',
    });
    const log = logOf(detail, "_protected");
    expect(log).toContain('"unit" failed (exit code 1)');
    expect(log).toContain("The rule: a file in the Work's protectedPaths is red whenever the change touches it");
    expect(detail.run.gate).toBe("red");
  });

  it("honest twin: a fix that also adds a dependency to package.json stays green", async () => {
    const agent = agentWriting({
      "src/price.js": PRICE_FIXED,
      "package.json": pkg("node --test test/", { dependencies: { "left-pad": "1.3.0" } }),
    });
    const detail = await dispatchAndSettle(h, (await scenario(NPM_PROJECT, [NPM_UNIT], agent)).task.id);
    expect(proofOf(detail)._protected).toEqual({
      verdict: "passed",
      message: "The change leaves the gate's own files alone",
    });
    expect(detail.run.gate).toBe("green");
  });

  it("a script the test script calls (`npm run unit`) turned into `true`: red, naming it", async () => {
    const files = {
      ...NODE_TESTS,
      "package.json": `${JSON.stringify({ scripts: { test: "npm run unit", unit: "node --test test/" } }, null, 2)}\n`,
    };
    const agent = agentWriting({
      "package.json": `${JSON.stringify({ scripts: { test: "npm run unit", unit: "true" } }, null, 2)}\n`,
    });
    const detail = await dispatchAndSettle(h, (await scenario(files, [check("unit", "npm test")], agent)).task.id);
    expect(proofOf(detail)._protected).toMatchObject({
      verdict: "failed",
      message: '"unit" passes only with its edited gate: scripts.unit in package.json',
    });
  });
});

describe("make", () => {
  const MAKEFILE = ".PHONY: test\ntest:\n\tnode --test test/\n";
  it("a Makefile `test:` target turned into `true`: red, naming the target", async () => {
    const files = { ...NODE_TESTS, Makefile: MAKEFILE };
    const agent = agentWriting({ Makefile: ".PHONY: test\ntest:\n\ttrue\n" });
    const detail = await dispatchAndSettle(
      h,
      (await scenario(files, [check("unit", "make test", { kind: "test" })], agent)).task.id,
    );
    expect(proofOf(detail).unit.verdict).toBe("passed");
    expect(proofOf(detail)._protected).toEqual({
      verdict: "failed",
      message: '"unit" passes only with its edited gate: Makefile (target test)',
    });
    expect(detail.run.gate).toBe("red");
  });
});

describe("pytest", () => {
  // The interpreter's real path: a check's scrubbed HOME breaks the pyenv shim.
  const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  const PYPROJECT = '[project]\nname = "shop"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n';
  const PY_PROJECT = {
    "price.py": "def price(cents):\n    return cents / 10\n",
    "tests/test_price.py":
      "from price import price\n\ndef test_converts():\n    assert price(250) == 2.5\n\ndef " +
      "test_zero():\n    assert price(0) == 0\n",
    "pyproject.toml": PYPROJECT,
  };
  const PY_UNIT = check("unit", `${python} -m pytest -p no:cacheprovider`, { kind: "test" });

  it("a `--deselect` of the failing test in pyproject.toml: red, naming the pytest table", async () => {
    const agent = agentWriting({
      "pyproject.toml": PYPROJECT.replace('"-q"', '"-q --deselect tests/test_price.py::test_converts"'),
    });
    const detail = await dispatchAndSettle(h, (await scenario(PY_PROJECT, [PY_UNIT], agent)).task.id);
    expect(proofOf(detail).unit.verdict).toBe("passed");
    expect(proofOf(detail)._protected).toEqual({
      verdict: "failed",
      message: '"unit" passes only with its edited gate: [tool.pytest…] in pyproject.toml',
    });
    expect(logOf(detail, "_protected")).toContain("1 failed");
  });

  it("honest twin: a fix with a new dependency in [project] leaves the pytest table alone: green", async () => {
    const agent = agentWriting({
      "price.py": "def price(cents):\n    return cents / 100\n",
      "pyproject.toml": PYPROJECT.replace('version = "0.1.0"', 'version = "0.1.0"\ndependencies = ["attrs"]'),
    });
    const detail = await dispatchAndSettle(h, (await scenario(PY_PROJECT, [PY_UNIT], agent)).task.id);
    expect(proofOf(detail)._protected).toMatchObject({ verdict: "passed" });
    expect(detail.run.gate).toBe("green");
  });
});

describe("the code under test is no gate", () => {
  const LINT = check("lint", "node --check src/price.js && ! grep -n console.log src/price.js", { kind: "lint" });
  it("a fix of src/price.js, which the lint check runs: green, with a note", async () => {
    const agent = agentWriting({ "src/price.js": PRICE_FIXED });
    const detail = await dispatchAndSettle(h, (await scenario(NPM_PROJECT, [NPM_UNIT, LINT], agent)).task.id);
    expect(proofOf(detail)._protected).toEqual({
      verdict: "passed",
      message: 'src/price.js changed; check "lint" runs it and passes with the original too',
    });
    expect(detail.run.gate).toBe("green");
  });

  it("a gate script the Work lists in protectedPaths stays red whenever touched", async () => {
    const files = { ...NPM_PROJECT, "scripts/gate.sh": "npm test\n" };
    const s = await makeScenario(
      h,
      {
        checkDefaults: [check("gate", "bash scripts/gate.sh")],
        agentCommand: agentWriting({ "src/price.js": PRICE_FIXED, "scripts/gate.sh": "# the same\nnpm test\n" }),
        protectedPaths: ["scripts/**"],
        maxGateAttempts: 1,
      },
      { files },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(proofOf(detail)._protected).toEqual({
      verdict: "failed",
      message: "The change edits the gate's own files: scripts/gate.sh",
    });
  });
});

// A gate script's folder turned into a link to another folder of the checkout, where the script says `exit 0`:
// the original is put back where the link leads (as the check follows it), and the check fails with it.
describe("a gate file behind a link the change committed", () => {
  const GATE = "#!/bin/sh\nnode -e 'process.exit(require(\"./src/price\")(250) === 2.5 ? 0 : 1)'\n";
  const UNIT = check("unit", "sh scripts/check.sh");
  // The agent's shell steps, then its commit.
  const committing = (...steps: string[]) => [...steps, "git add -A", "git commit -qm agent"].join(" && ");
  // One attempt of `checks` with `agent`, on the unfixed src/price.js and `files`, with `links` (name → target)
  // committed at the start; its run as it settled.
  async function runWithLinks(
    checks: ReturnType<typeof check>[],
    agent: string,
    files: Record<string, string>,
    links: Record<string, string> = {},
  ): Promise<RunDetail> {
    const s = await makeScenario(
      h,
      { checkDefaults: checks, agentCommand: agent, maxGateAttempts: 1 },
      { files: { "src/price.js": "module.exports = (c) => c / 10;\n", ...files } },
    );
    for (const [name, target] of Object.entries(links)) fs.symlinkSync(target, path.join(s.repo.dir, name));
    if (Object.keys(links).length > 0) commitFiles(s.repo.dir, {}, "links at the start");
    return dispatchAndSettle(h, s.task.id);
  }
  const protectedRowOf = (detail: RunDetail) => detail.attempts[0].results.find((r) => r.checkId === "_protected");
  // `unit` passed on the change, and `_protected` is red because it passes only with scripts/check.sh edited.
  const expectCaughtEditedGate = (detail: RunDetail) => {
    expect(proofOf(detail).unit.verdict).toBe("passed");
    expect(proofOf(detail)._protected).toEqual({
      verdict: "failed",
      message: '"unit" passes only with its edited gate: scripts/check.sh',
    });
  };

  it("scripts/ made a link to s2/ holding `exit 0`: red, naming scripts/check.sh", async () => {
    const agent = committing(
      "mkdir s2",
      "printf 'exit 0\\n' > s2/check.sh",
      "git rm -q -r scripts",
      "ln -s s2 scripts",
    );
    const detail = await runWithLinks([UNIT], agent, { "scripts/check.sh": GATE });
    expectCaughtEditedGate(detail);
    expect(detail.run.gate).toBe("red");
  });

  // Two checks' gate scripts made one file: scripts/unit a link to scripts/lint, whose script says `exit 0`.
  // Putting back both start texts in turn would leave the last one in both places.
  it("two gate paths made one file by a link: red for both checks", async () => {
    const agent = committing(
      "git rm -q -r scripts/unit",
      "ln -s lint scripts/unit",
      "printf 'exit 0 # tidied\\n' > scripts/lint/check.sh",
    );
    const detail = await runWithLinks(
      [check("unit", "sh scripts/unit/check.sh"), check("lint", "sh scripts/lint/check.sh")],
      agent,
      { "scripts/unit/check.sh": GATE, "scripts/lint/check.sh": "exit 0\n" },
    );
    const row = protectedRowOf(detail);
    expect(row?.verdict).toBe("failed");
    expect(row?.logTail ?? "").toContain("the same file as");
    expect(detail.run.gate).toBe("red");
  });

  // Gate files are read through the links the tree holds: a gate script the change adds behind a new link
  // (lib/check.sh, and scripts -> lib) is added as surely as scripts/check.sh itself would be.
  it("a gate script added behind a folder link the change made: red, as if added in place", async () => {
    const agent = committing("mkdir lib", "printf 'exit 0\\n' > lib/check.sh", "ln -s lib scripts");
    const detail = await runWithLinks([UNIT], agent, {});
    expectCaughtEditedGate(detail);
  });

  // The start commit has scripts -> tools (an earlier, harmless-looking change): tools/check.sh is what the
  // check runs, so editing it is editing the gate.
  it("a gate script reached through a link the start commit had: its edit is the gate's", async () => {
    const agent = agentWriting({ "tools/check.sh": "exit 0\n" });
    const detail = await runWithLinks([UNIT], agent, { "tools/check.sh": GATE }, { scripts: "tools" });
    expectCaughtEditedGate(detail);
  });

  // git prints a link's target as stored, newlines and all: a link out of the tree whose target holds lines
  // shaped as git's answers (here at pyproject.toml, which the pytest check's discovery reads) must not be
  // taken as the answers for the gate files read after it.
  it("a link whose target holds lines shaped as git's answers does not pass a weakened gate", async () => {
    const agent = committing(
      "printf 'exit 0\\n' > tools/check.sh",
      "B=$(git rev-parse HEAD:tools/check.sh)",
      "ln -s \"$(printf '/nonexistent\\nx missing\\nx missing\\n%s blob 1' $B)\" pyproject.toml",
    );
    const detail = await runWithLinks(
      [check("py", "exit 0; pytest"), UNIT],
      agent,
      { "tools/check.sh": GATE },
      { scripts: "tools" },
    );
    expect(proofOf(detail).unit.verdict).toBe("passed");
    expect(proofOf(detail)._protected.verdict).toBe("failed");
    expect(detail.run.gate).toBe("red");
  });

  it("scripts/ made a link out of the worktree: the file cannot be put back, and the row is red", async () => {
    const agent = committing("git rm -q -r scripts", "ln -s /usr/bin scripts");
    const detail = await runWithLinks([check("unit", "sh scripts/check.sh || true")], agent, {
      "scripts/check.sh": GATE,
    });
    const row = protectedRowOf(detail);
    expect(row?.verdict).toBe("failed");
    expect(row?.logTail ?? "").toContain("could not be put back as it was");
  });
});

describe("the test set does not silently shrink", () => {
  it("a passing test file renamed out of the runner's glob: red, naming the test that no longer runs", async () => {
    const agent = agentWriting({
      "src/price.js": PRICE_FIXED,
      "test/other.test.js": null,
      "disabled/other.txt": NODE_TESTS["test/other.test.js"],
    });
    const detail = await dispatchAndSettle(h, (await scenario(NPM_PROJECT, [NPM_UNIT], agent)).task.id);
    expect(proofOf(detail).unit.verdict).toBe("passed");
    expect(proofOf(detail)["_tests-kept"]).toEqual({
      verdict: "failed",
      message:
        '"unit" no longer runs 1 test that passed at the start: is there ' +
        "(test/other.test.js was renamed to disabled/other.txt, out of the test patterns)",
    });
    expect(logOf(detail, "_tests-kept")).toContain("no longer run: is there");
    expect(detail.run.gate).toBe("red");
  });

  it("without names (pytest -q), the count: a test file moved where pytest does not look is red", async () => {
    const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
    const files = {
      "price.py": "def price(cents):\n    return cents / 100\n",
      "tests/test_price.py": "from price import price\n\ndef test_converts():\n    assert price(250) == 2.5\n",
      "tests/test_zero.py": "from price import price\n\ndef test_zero():\n    assert price(0) == 0\n",
    };
    const agent = agentWriting({ "tests/test_zero.py": null, "tests/zero_check.py": files["tests/test_zero.py"] });
    const unit = check("unit", `${python} -m pytest -q -p no:cacheprovider --rootdir=. tests`, { kind: "test" });
    const detail = await dispatchAndSettle(h, (await scenario(files, [unit], agent)).task.id);
    expect(proofOf(detail).unit.verdict).toBe("passed");
    expect(proofOf(detail)["_tests-kept"]).toMatchObject({
      verdict: "failed",
      message: '"unit" ran 1 test where it ran 2 at the start',
    });
  });

  it("honest twin: a test file the npm script runs by name, rewritten with the fix, is a test, not \
a gate", async () => {
    const files = { ...NODE_TESTS, "package.json": pkg("node --test test/price.test.js") };
    const agent = agentWriting({
      "src/price.js": PRICE_FIXED,
      "test/price.test.js": `${NODE_TESTS["test/price.test.js"]}test("zero", () => assert.strictEqual(price(0), 0));\n`,
    });
    const detail = await dispatchAndSettle(h, (await scenario(files, [NPM_UNIT], agent)).task.id);
    expect(proofOf(detail)._protected).toMatchObject({ verdict: "passed" });
    expect(proofOf(detail)["_tests-kept"]).toMatchObject({ verdict: "passed" });
    expect(detail.run.gate).toBe("green");
  });

  it("honest twin: a fix with a new test file keeps every test: green", async () => {
    const agent = agentWriting({
      "src/price.js": PRICE_FIXED,
      "test/more.test.js": 'const test = require("node:test");\ntest("rounds", () => {});\n',
    });
    const detail = await dispatchAndSettle(h, (await scenario(NPM_PROJECT, [NPM_UNIT], agent)).task.id);
    expect(proofOf(detail)["_tests-kept"]).toMatchObject({ verdict: "passed" });
    expect(proofOf(detail)._protected).toMatchObject({ verdict: "passed" });
    expect(detail.run.gate).toBe("green");
  });
});

describe("the start commit's recorded test set", () => {
  it("a test that passed on the start commit in attempt 1 and no longer runs in attempt 2 is named", async () => {
    // The test list is a file the command only reads (no gate file): only the test set shows the shrink.
    const files = { ...NODE_TESTS, "tests.txt": "test/price.test.js test/other.test.js\n" };
    const unit = check("unit", "node --test $(cat tests.txt)", { kind: "test" });
    const s = await makeScenario(h, { checkDefaults: [unit], maxGateAttempts: 2 }, { files });
    const first = await dispatchAndSettle(h, s.task.id);
    expect(first.attempts[0].gate).toBe("red");
    commitFiles(s.worktree, { "src/price.js": PRICE_FIXED, "tests.txt": "test/price.test.js\n" }, "fix, fewer tests");
    await startNextAttempt(SYSTEM_ACTOR, first.run.id);
    const second = await settle(h, first.run.id);
    const row = second.attempts[1].results.find((r) => r.checkId === "_tests-kept")!;
    expect(second.attempts[1].results.find((r) => r.checkId === "unit")!.verdict).toBe("passed");
    expect([row.verdict, row.message]).toEqual([
      "failed",
      '"unit" no longer runs 1 test that passed at the start: is there',
    ]);
    expect(second.run.gate).toBe("red");
  });
});

describe("vitest configuration", () => {
  // Vitest runs offline from Gatehouse's own install, linked in as the repository's node_modules (git-ignored,
  // so the scratch worktree links it too). Jest likewise (below); Mocha and AVA are not tried end to end.
  const modules = path.resolve(__dirname, "../../node_modules");
  const VITEST_TESTS = {
    ".gitignore": "node_modules\n",
    "src/price.js": "export const price = (cents) => cents / 10;\n",
    "test/price.test.js":
      'import { expect, test } from "vitest";\nimport { price } from ' +
      '"../src/price.js";\ntest("converts cents", () => expect(price(250)).toBe(2.5));\n',
    "test/other.test.js": 'import { test } from "vitest";\ntest("is there", () => {});\n',
    "vitest.config.mjs": "export default { test: { include: ['test/**/*.test.js'] } };\n",
    "package.json": '{ "type": "module" }\n',
  };
  const VITEST = check("unit", "node_modules/.bin/vitest run --reporter=verbose", { kind: "test", timeoutSec: 120 });
  const linkModules = `ln -s '${modules}' node_modules`;

  it("an `exclude` of the failing test file in vitest.config.mjs: red, naming the config", async () => {
    const agent = `${linkModules} && ${agentWriting({
      "vitest.config.mjs":
        "export default { test: { include: ['test/**/*.test.js'], exclude: ['test/price.test.js'] } };\n",
    })}`;
    const detail = await dispatchAndSettle(h, (await scenario(VITEST_TESTS, [VITEST], agent)).task.id);
    expect(proofOf(detail).unit.verdict).toBe("passed");
    expect(proofOf(detail)._protected).toEqual({
      verdict: "failed",
      message: '"unit" passes only with its edited gate: vitest.config.mjs',
    });
  }, 120_000);
});

describe("jest configuration", () => {
  // Jest (a devDependency of Gatehouse for this) runs from Gatehouse's install, linked in like vitest above.
  const modules = path.resolve(__dirname, "../../node_modules");
  const JEST_TESTS = {
    ".gitignore": "node_modules\n",
    "src/price.js": "exports.price = (cents) => cents / 10;\n",
    "test/price.test.js":
      'const { price } = require("../src/price.js");\n' +
      'test("converts cents", () => expect(price(250)).toBe(2.5));\n',
    "test/other.test.js": 'test("is there", () => {});\n',
    "jest.config.js": 'module.exports = { testPathIgnorePatterns: ["/node_modules/"] };\n',
    "package.json": '{ "name": "prices" }\n',
  };
  const JEST = check("unit", "node_modules/.bin/jest --ci --verbose", { kind: "test", timeoutSec: 120 });
  const linkModules = `ln -s '${modules}' node_modules`;

  it("a `testPathIgnorePatterns` of the failing test file in jest.config.js: red, naming the config", async () => {
    const agent = `${linkModules} && ${agentWriting({
      "jest.config.js": 'module.exports = { testPathIgnorePatterns: ["/node_modules/", "test/price.test.js"] };\n',
    })}`;
    const detail = await dispatchAndSettle(h, (await scenario(JEST_TESTS, [JEST], agent)).task.id);
    expect(proofOf(detail).unit.verdict).toBe("passed");
    expect(proofOf(detail)._protected).toEqual({
      verdict: "failed",
      message: '"unit" passes only with its edited gate: jest.config.js',
    });
  }, 120_000);

  it("honest twin: the fix itself, with jest's configuration untouched, is green", async () => {
    const agent = `${linkModules} && ${agentWriting({ "src/price.js": "exports.price = (cents) => cents / 100;\n" })}`;
    const detail = await dispatchAndSettle(h, (await scenario(JEST_TESTS, [JEST], agent)).task.id);
    expect(proofOf(detail).unit.verdict).toBe("passed");
    expect(proofOf(detail)._protected?.verdict).not.toBe("failed");
    expect(detail.run.gate).toBe("green");
  }, 120_000);
});
