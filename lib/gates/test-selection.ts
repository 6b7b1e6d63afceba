// Test selection for the proof re-runs (README, "Proof rows"): a check's command rewritten to run only some
// test files, when its runner lets Gatehouse name them — `node --test`, pytest, vitest, jest, mocha, run
// directly or through one npm script. The selected run must be part of what the whole command runs: each
// file must be one the command would run by its own arguments and the runner's naming rules, else there is
// no selection and the reason says why (the caller runs the whole command, saying so). Pure: `read` gives a
// file of the checkout the command runs in (checkout-relative path), or null.
import path from "node:path";
import picomatch from "picomatch";
import { TAKES_VALUE, commandsOf, countCommands } from "./command-scripts";
import { npmScriptOf, runnerOf } from "./gate-files";
import { parseJson, partOf } from "./gate-file-parts";
import { shellQuote } from "./shell-quote";

type Read = (file: string) => string | null;

export type Selection =
  | { kind: "selected"; command: string; runner: string; files: string[]; left?: string[] }
  | { kind: "whole"; reason: string };

const whole = (reason: string): Selection => ({ kind: "whole", reason });
const MAX_SCRIPT_DEPTH = 4;
const NEEDS_SHELL = /[$`~{}]/;

const join = (dir: string, file: string) => (dir === "." || dir === "" ? file : path.posix.join(dir, file));
const isGlob = (w: string) => /[*?[\]{}]/.test(w);

// A runner's reading of its own command line: which options take the next word as their value.
type Parsed = { head: string[]; options: string[]; positionals: string[] };

function parseArgs(words: string[], takesValue: ReadonlySet<string>, shortWithValue = ""): Parsed | string {
  const options: string[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === "--") return "the command passes arguments after --";
    if (!w.startsWith("-") || w === "-") {
      positionals.push(w);
      continue;
    }
    options.push(w);
    const flag = w.split("=")[0];
    const short = /^-([A-Za-z])$/.exec(w)?.[1];
    if (!w.includes("=") && (takesValue.has(flag) || (short && shortWithValue.includes(short)))) {
      if (i + 1 >= words.length) return `the option ${w} has no value`;
      options.push(words[++i]);
    }
  }
  return { head: [], options, positionals };
}

// ---- the runners -------------------------------------------------------------------------------------

// A runner's rule: which files the command runs (`runs` says which in words), and the command for some.
type Rewrite = { isRun: (file: string) => boolean; runs: string; words: (files: readonly string[]) => string[] };
type RunnerRule = (words: string[], runDir: string, read: Read) => Rewrite | string;

const NODE_VALUE = new Set([
  ...TAKES_VALUE.node,
  "--test-reporter",
  "--test-reporter-destination",
  "--test-name-pattern",
  "--test-skip-pattern",
  "--test-concurrency",
  "--test-timeout",
  "--test-shard",
  "--test-coverage-include",
  "--test-coverage-exclude",
  "--watch-path",
  "--input-type",
  "--stack-size",
  "--max-old-space-size",
]);

// node:test's own rule for the files it finds (Node 20's directory search and Node 22's default globs agree).
function isNodeTestName(file: string): boolean {
  if (!/\.(c|m)?js$/.test(file)) return false;
  const parts = file.split("/");
  if (parts.includes("node_modules")) return false;
  const base = path.posix.basename(file).replace(/\.(c|m)?js$/, "");
  return base === "test" || base.startsWith("test-") || /[.\-_]test$/.test(base) || parts.slice(0, -1).includes("test");
}

// A file the arguments name: the path itself, a glob matching it, or a directory holding it (searched with
// the runner's naming rule).
function namedBy(
  file: string,
  args: readonly string[],
  read: Read,
  runDir: string,
  inDir: (f: string) => boolean,
): boolean {
  return args.some((raw) => {
    const a = path.posix.normalize(raw).replace(/\/$/, "");
    if (isGlob(a)) return picomatch.isMatch(file, a, { dot: true });
    if (a === file) return true;
    if (read(join(runDir, a)) !== null) return false; // a file, not this one
    return (a === "." || file.startsWith(`${a}/`)) && inDir(a === "." ? file : file.slice(a.length + 1));
  });
}

const nodeTest: RunnerRule = (words, runDir, read) => {
  const parsed = parseArgs(words.slice(1), NODE_VALUE);
  if (typeof parsed === "string") return parsed;
  if (!parsed.options.includes("--test")) return "node runs no test files here (no --test)";
  if (parsed.options.some((o) => o.startsWith("--watch"))) return "node runs in watch mode";
  return {
    isRun: (f) =>
      parsed.positionals.length ? namedBy(f, parsed.positionals, read, runDir, isNodeTestName) : isNodeTestName(f),
    runs: "`node --test` runs with these arguments",
    words: (files) => [words[0], ...parsed.options, ...files],
  };
};

const PYTEST_VALUE = new Set([
  "-k",
  "-m",
  "-p",
  "-c",
  "-o",
  "-W",
  "-n",
  "--rootdir",
  "--tb",
  "--maxfail",
  "--deselect",
  "--ignore",
  "--ignore-glob",
  "--confcutdir",
  "--basetemp",
  "--junitxml",
  "--junit-xml",
  "--log-level",
  "--durations",
  "--cov",
  "--cov-report",
  "--cov-config",
  "--import-mode",
  "--capture",
  "--override-ini",
  "--color",
  "--dist",
  "--timeout",
  "--reruns",
  "--config-file",
]);
const PYTEST_SKIPPED_DIRS = /^(\..*|build|dist|node_modules|venv|CVS|_darcs|\{arch\}|.*\.egg)$/;

const isPytestName = (file: string) =>
  /^(test_.*|.*_test)\.py$/.test(path.posix.basename(file)) &&
  !file
    .split("/")
    .slice(0, -1)
    .some((d) => PYTEST_SKIPPED_DIRS.test(d));

// What in pytest's configuration changes which files it collects (then Gatehouse does not select).
function pytestConfigProblem(runDir: string, read: Read): string | null {
  const sources: [string, string][] = [
    ["pytest.ini", "[pytest"],
    ["pyproject.toml", "[tool.pytest"],
    ["setup.cfg", "[tool:pytest"],
    ["tox.ini", "[pytest"],
  ];
  for (const base of new Set([runDir, "."]))
    for (const [file, section] of sources) {
      const at = join(base === "." ? "" : base, file);
      const text = partOf(read(at), section);
      if (!text) continue;
      const key = /^\s*(testpaths|python_files|norecursedirs|rootdir)\s*=/m.exec(text);
      if (key) return `${at} sets ${key[1]}`;
      const addopts = /^\s*addopts\s*=\s*(.*)$/m.exec(text)?.[1] ?? "";
      if (
        addopts
          .replace(/["'[\],]/g, " ")
          .split(/\s+/)
          .some((w) => w !== "" && !w.startsWith("-"))
      )
        return `${at} sets addopts with arguments of its own`;
    }
  return null;
}

const pytest: RunnerRule = (words, runDir, read) => {
  const at = words[0] === "pytest" || words[0].endsWith("/pytest") || words[0] === "py.test" ? 1 : 3;
  const parsed = parseArgs(words.slice(at), PYTEST_VALUE, "kmpcoWn");
  if (typeof parsed === "string") return parsed;
  if (parsed.options.includes("--pyargs")) return "pytest runs packages by name (--pyargs)";
  if (parsed.positionals.some((p) => p.includes("::"))) return "the command names single tests (::)";
  const problem = pytestConfigProblem(runDir, read);
  if (problem) return problem;
  return {
    isRun: (f) =>
      isPytestName(f) &&
      (parsed.positionals.length === 0 || namedBy(f, parsed.positionals, read, runDir, isPytestName)),
    runs: "pytest collects with these arguments",
    words: (files) => [...words.slice(0, at), ...parsed.options, ...files],
  };
};

const VITEST_VALUE = new Set([
  "-c",
  "--config",
  "-r",
  "--root",
  "--dir",
  "-t",
  "--testNamePattern",
  "--reporter",
  "--outputFile",
  "--project",
  "--environment",
  "--pool",
  "--shard",
  "--exclude",
  "--mode",
  "--maxWorkers",
  "--minWorkers",
  "--testTimeout",
  "--hookTimeout",
  "--retry",
]);

// vitest's arguments are filters: a file runs when its path contains one. A selected path that contains one
// of the command's own filters runs only files the command runs too.
// A runner configuration that may choose the test files (then its default naming rule cannot be relied on).
function configChoosing(runDir: string, read: Read, names: string[], keys: RegExp, pkgKey?: string): string | null {
  const exts = ["js", "mjs", "cjs", "ts", "mts", "cts", "json"];
  for (const base of new Set([runDir, "."]))
    for (const name of names)
      for (const ext of exts) {
        const file = join(base === "." ? "" : base, `${name}.${ext}`);
        if (keys.test(read(file) ?? "")) return `${file} may choose the test files`;
      }
  const manifest = parseJson(read(join(runDir, "package.json")));
  if (pkgKey && manifest?.[pkgKey] !== undefined && keys.test(JSON.stringify(manifest[pkgKey])))
    return `package.json's ${pkgKey} key may choose the test files`;
  return null;
}

// The default naming rules of Vitest (include) and Jest (testMatch): a file outside them is no test file of
// its own (a helper), which the whole command runs only through the tests that import it.
const VITEST_INCLUDE = picomatch("**/*.{test,spec}.?(c|m)[jt]s?(x)", { dot: true });
const JEST_MATCH = picomatch(["**/__tests__/**/*.?([mc])[jt]s?(x)", "**/?(*.)+(spec|test).?([mc])[jt]s?(x)"], {
  dot: true,
});

const vitest: RunnerRule = (words, runDir, read) => {
  let i = 1;
  const sub = words[i] === "run" || words[i] === "watch" || words[i] === "dev" ? words[i++] : null;
  if (words[i] === "related" || words[i] === "bench" || words[i] === "list")
    return `vitest ${words[i]} is not a test run`;
  const parsed = parseArgs(words.slice(i), VITEST_VALUE);
  if (typeof parsed === "string") return parsed;
  const config = configChoosing(
    runDir,
    read,
    ["vitest.config", "vite.config", "vitest.workspace"],
    /\b(include|dir|root|projects|workspace)\b/,
  );
  if (config) return config;
  return {
    isRun: (f) =>
      VITEST_INCLUDE(f) && (parsed.positionals.length === 0 || parsed.positionals.some((p) => f.includes(p))),
    runs: `vitest runs with the filters ${parsed.positionals.join(" ")}`,
    words: (files) => [words[0], ...(sub ? [sub] : []), ...parsed.options, ...files],
  };
};

const JEST_VALUE = new Set([
  "-c",
  "--config",
  "-t",
  "--testNamePattern",
  "--reporters",
  "-w",
  "--maxWorkers",
  "--selectProjects",
  "--shard",
  "--outputFile",
  "--testTimeout",
  "--coverageDirectory",
  "--rootDir",
  "--roots",
  "--env",
  "--testEnvironment",
]);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

// jest's arguments are regular expressions over test paths; a selected file is named by its escaped path.
const jest: RunnerRule = (words, runDir, read) => {
  const parsed = parseArgs(words.slice(1), JEST_VALUE);
  if (typeof parsed === "string") return parsed;
  if (
    parsed.options.some((o) =>
      /^--(testPathPattern|testPathPatterns|runTestsByPath|findRelatedTests|onlyChanged|changedSince|watch)/.test(o),
    )
  )
    return "the command chooses its test files by an option of its own";
  if (parsed.positionals.length) return "the command chooses its test files by patterns of its own";
  const config = configChoosing(
    runDir,
    read,
    ["jest.config"],
    /\b(testMatch|testRegex|roots|rootDir|projects)\b/,
    "jest",
  );
  if (config) return config;
  return {
    isRun: (f) => JEST_MATCH(f),
    runs: "jest runs",
    words: (files) => [words[0], ...parsed.options, ...files.map((f) => `/${escapeRegExp(f)}$`)],
  };
};

const MOCHA_VALUE = new Set([
  "-r",
  "--require",
  "-R",
  "--reporter",
  "-O",
  "--reporter-option",
  "-t",
  "--timeout",
  "-u",
  "--ui",
  "-g",
  "--grep",
  "-f",
  "--fgrep",
  "-s",
  "--slow",
  "--retries",
  "-j",
  "--jobs",
  "--ignore",
  "--exclude",
  "--file",
]);

const mocha: RunnerRule = (words, runDir, read) => {
  const parsed = parseArgs(words.slice(1), MOCHA_VALUE);
  if (typeof parsed === "string") return parsed;
  if (parsed.options.some((o) => /^--(config|package|extension|spec|watch)/.test(o)))
    return "the command chooses its test files by an option of its own";
  const configs = [".mocharc.js", ".mocharc.cjs", ".mocharc.yaml", ".mocharc.yml", ".mocharc.json", ".mocharc.jsonc"];
  const config = configs.map((c) => join(runDir, c)).find((c) => read(c) !== null);
  if (config) return `${config} may choose the test files`;
  if (parseJson(read(join(runDir, "package.json")))?.mocha !== undefined) return "package.json has a mocha key";
  const recursive = parsed.options.includes("--recursive");
  const inDir = (f: string) => /\.(c|m)?js$/.test(f) && (recursive || !f.includes("/"));
  return {
    isRun: (f) => namedBy(f, parsed.positionals.length ? parsed.positionals : ["test"], read, runDir, inDir),
    runs: "mocha runs with these arguments",
    words: (files) => [words[0], ...parsed.options, ...files],
  };
};

const RULES: Record<string, RunnerRule> = { pytest, vitest, jest, mocha };

// ---- the command -------------------------------------------------------------------------------------

// The command to run only `files` (checkout-relative) instead of the check's whole command, or why not.
// `cwd`: the check's cwd (checkout-relative); the command it returns runs there, as the check's does.
// `dropOthers`: a file the command does not run as a test is left out (`left`) rather than ending the
// selection — right when only the selected files' failures count, never when a changed helper or fixture
// could change what every other test does.
export function selectTests(input: {
  command: string;
  cwd?: string;
  files: readonly string[];
  read: Read;
  dropOthers?: boolean;
}): Selection {
  const cwd = path.posix.normalize(input.cwd || ".");
  if (input.files.length === 0) return whole("there are no test files to select");
  if (/\{\{/.test(input.command)) return whole("the command has placeholders");
  return resolve(input.command, cwd, ".", input.files, input.read, 0, { dropOthers: !!input.dropOthers });
}

function resolve(
  command: string,
  cwd: string,
  dir: string,
  files: readonly string[],
  read: Read,
  depth: number,
  opts: { dropOthers: boolean },
): Selection {
  const simple = commandsOf(command, dir);
  if (simple.length !== 1 || countCommands(command) !== 1)
    return whole(
      simple.length === 0
        ? "the command runs no command Gatehouse can read"
        : "the command runs more than one command, or one after a cd it cannot follow",
    );
  const [{ dir: at, words, env }] = simple;
  if (words.some((w) => NEEDS_SHELL.test(w)) || env.some((e) => NEEDS_SHELL.test(e)))
    return whole("the command has words the shell expands ($, `, ~ or braces)");
  const runDir = join(cwd, at);
  const npm = npmScriptOf(words, at);
  if (npm) {
    if (words[0] !== "npm") return whole(`${words[0]} scripts are not selected from (only npm's)`);
    if (depth >= MAX_SCRIPT_DEPTH) return whole("npm scripts call each other too deep");
    const dashes = words.indexOf("--");
    if (dashes !== -1) return whole("the npm script is given arguments of its own");
    const manifest = join(join(cwd, npm.dir), "package.json");
    const scripts = parseJson(read(manifest))?.scripts as Record<string, unknown> | undefined;
    const body = scripts?.[npm.script];
    if (typeof body !== "string") return whole(`${manifest} has no script "${npm.script}"`);
    for (const hook of [`pre${npm.script}`, `post${npm.script}`])
      if (typeof scripts?.[hook] === "string") return whole(`the npm script "${npm.script}" has a ${hook} script`);
    const inner = resolve(body, join(cwd, npm.dir), ".", files, read, depth + 1, opts);
    if (inner.kind === "whole") return whole(`npm script "${npm.script}": ${inner.reason}`);
    // npm puts the package's node_modules/.bin on PATH: `npm exec -c` does the same for the selected run.
    // One npm exec for a script calling another: the inner one only changes folder.
    const call = depth === 0 ? `npm exec -c ${shellQuote(inner.command)}` : inner.command;
    return { ...inner, command: [...cdTo(npm.dir), ...env.map(quoteAssignment), call].join(" ") };
  }
  const runner = runnerOf(words);
  const isNode = path.posix.basename(words[0]) === "node" && words.includes("--test");
  if (!runner && !isNode) return whole(`${words[0]} is not a test runner Gatehouse can select files for`);
  // npx/pnpm exec/yarn before the runner: kept as they are.
  const lead = isNode ? 0 : words.findIndex((w) => isRunnerWord(w, runner!));
  if (lead < 0) return whole("the runner's name cannot be found in the command");
  const rule = isNode ? nodeTest : RULES[runner!];
  if (!rule) return whole(`${runner} cannot be told which files to run`);
  const rewrite = rule(words.slice(lead), runDir, read);
  if (typeof rewrite === "string") return whole(rewrite);
  const chosen: string[] = [];
  const relative: string[] = [];
  const left: string[] = [];
  for (const f of files) {
    const r = path.posix.relative(runDir === "." ? "" : runDir, f);
    const problem = r.startsWith("..")
      ? `${f} lies outside the folder the command runs in`
      : rewrite.isRun(r)
        ? null
        : `${f} is not a file ${rewrite.runs}`;
    if (problem && !opts.dropOthers) return whole(problem);
    if (problem) left.push(f);
    else {
      chosen.push(f);
      relative.push(r);
    }
  }
  if (chosen.length === 0) return whole(`none of ${files.join(", ")} is a file ${rewrite.runs}`);
  const line = [
    ...env.map(quoteAssignment),
    ...[...words.slice(0, lead), ...rewrite.words(relative)].map(quoteWord),
  ].join(" ");
  return {
    kind: "selected",
    command: [...cdTo(at), line].join(" "),
    runner: isNode ? "node --test" : runner!,
    files: chosen,
    ...(left.length ? { left } : {}),
  };
}

const isRunnerWord = (w: string, runner: string) => {
  const name = path.posix.basename(w);
  return name === runner || (runner === "pytest" && (name === "py.test" || /^python(3(\.\d+)?)?$/.test(name)));
};
const cdTo = (dir: string) => (dir === "." || dir === "" ? [] : [`cd ${shellQuote(dir)} &&`]);
const quoteAssignment = (a: string) => {
  const eq = a.indexOf("=");
  return `${a.slice(0, eq + 1)}${quoteWord(a.slice(eq + 1))}`;
};
// Words as bash reads them back: plain ones as they are, others single-quoted (globs stay globs).
const quoteWord = (w: string) =>
  /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) || /^[A-Za-z0-9_./*?-]+$/.test(w) ? w : shellQuote(w);
