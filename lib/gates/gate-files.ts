// Gate files (README, "Proof rows"): the files that decide what a check runs — the scripts its command
// names, the package.json scripts it runs through npm/yarn/pnpm (with their pre/post scripts and the
// scripts they call), the Makefile/justfile targets, and the test runners' configuration (pytest.ini, the
// pytest tables of pyproject.toml/setup.cfg/tox.ini, conftest.py, jest/vitest/mocha/ava configs and the
// package.json keys they read). Pure: the caller says what a file holds at a version (`read`).
import path from "node:path";
import { commandsOf, scriptsOfCommand } from "./command-scripts";
import { parseJson, partOf } from "./gate-file-parts";
import type { FileChange } from "./proof";

// One gate file, or the part of it that matters: `part` null is the whole file; "scripts.<name>" or a
// top-level key of package.json; "[<section prefix>]" of an INI/TOML file.
type GateRef = { path: string; part: string | null; label: string };
export type GateFiles = { refs: GateRef[]; globs: { glob: string; label: string }[] };

type Read = (file: string) => string | null;
export type Runner = "pytest" | "jest" | "vitest" | "mocha" | "ava";
const RUNNERS: readonly Runner[] = ["pytest", "jest", "vitest", "mocha", "ava"];
const MAX_DEPTH = 6;

const join = (dir: string, file: string) => (dir === "." || dir === "" ? file : path.posix.join(dir, file));

// The gate files of one check at one version of the checkout.
// A test file a check runs (`node test/a.test.js`) is a test, judged by `_tests-kept`, not a gate file
// (`isTest`: the Work's testPatterns).
export function gateFilesOf(
  check: { command?: string; cwd?: string; kind?: string },
  read: Read,
  isTest: (file: string) => boolean = () => false,
): GateFiles {
  const found: GateFiles = { refs: [], globs: [] };
  const runners = new Set<Runner>();
  const seen = new Set<string>();
  const addRef = (ref: GateRef) => {
    const key = `${ref.path}\0${ref.part}`;
    if (!seen.has(key)) {
      seen.add(key);
      found.refs.push(ref);
    }
  };
  const walk = (command: string, cwd: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    for (const script of scriptsOfCommand(command, cwd))
      if (!isTest(script) && read(script) !== null) addRef({ path: script, part: null, label: script });
    for (const { dir, words } of commandsOf(command, cwd)) {
      const runner = runnerOf(words);
      if (runner) {
        runners.add(runner);
        addRunnerConfig(runner, dir, read, addRef, found);
        const config = configFileOf(runner, words, dir);
        if (config && read(config) !== null) addRef({ path: config, part: null, label: config });
      }
      const npm = npmScriptOf(words, dir);
      if (npm) {
        const manifest = join(npm.dir, "package.json");
        const scripts = parseJson(read(manifest))?.scripts as Record<string, unknown> | undefined;
        for (const name of [`pre${npm.script}`, npm.script, `post${npm.script}`]) {
          const body = scripts?.[name];
          if (name !== npm.script && typeof body !== "string") continue;
          addRef({ path: manifest, part: `scripts.${name}`, label: `scripts.${name} in ${manifest}` });
          if (typeof body === "string") walk(body, npm.dir, depth + 1);
        }
      }
      const target = makeTargetsOf(words, dir, read);
      if (target) {
        for (const t of target.targets) {
          addRef({ path: target.file, part: null, label: `${target.file} (target ${t})` });
          for (const line of recipeOf(read(target.file) ?? "", t, target.isJust)) walk(line, target.dir, depth + 1);
        }
      }
    }
  };
  walk(check.command ?? "", check.cwd ?? "", 0);
  // A test check whose runner cannot be told from its command: every runner's configuration counts.
  if (runners.size === 0 && check.kind === "test")
    for (const r of RUNNERS) addRunnerConfig(r, check.cwd ?? "", read, addRef, found);
  return found;
}

export function runnerOf(words: string[]): Runner | null {
  let i = 0;
  if (words[0] === "npx" || words[0] === "pnpx" || (words[0] === "pnpm" && words[1] === "exec")) {
    i = words[0] === "pnpm" ? 2 : 1;
    while (words[i]?.startsWith("-")) i++;
  }
  if (words[0] === "yarn" && RUNNERS.includes(words[1] as Runner)) i = 1;
  const head = path.posix.basename(words[i] ?? "");
  if (head === "pytest" || head === "py.test") return "pytest";
  if (/^python(3(\.\d+)?)?$/.test(head) && words[i + 1] === "-m" && words[i + 2] === "pytest") return "pytest";
  return RUNNERS.includes(head as Runner) ? (head as Runner) : null;
}

const CONFIG_GLOBS: Record<Runner, string[]> = {
  pytest: ["pytest.ini", "**/conftest.py"],
  jest: ["jest.config.*"],
  vitest: ["vitest.config.*", "vite.config.*", "vitest.workspace.*"],
  mocha: [".mocharc.*"],
  ava: ["ava.config.*"],
};
// Sections of INI/TOML files pytest reads its options from.
const PYTEST_SECTIONS: [string, string][] = [
  ["pyproject.toml", "[tool.pytest"],
  ["setup.cfg", "[tool:pytest"],
  ["tox.ini", "[pytest"],
];
const PACKAGE_KEYS: Partial<Record<Runner, string>> = { jest: "jest", mocha: "mocha", ava: "ava" };

function addRunnerConfig(runner: Runner, dir: string, read: Read, addRef: (r: GateRef) => void, found: GateFiles) {
  // The runner finds its configuration in its directory or the checkout's root.
  for (const base of new Set([dir === "." ? "" : dir, ""])) {
    for (const glob of CONFIG_GLOBS[runner]) {
      const g = join(base, glob);
      if (!found.globs.some((x) => x.glob === g)) found.globs.push({ glob: g, label: g });
    }
    if (runner === "pytest")
      for (const [file, section] of PYTEST_SECTIONS) {
        const p = join(base, file);
        if (read(p) !== null) addRef({ path: p, part: section, label: `${section}…] in ${p}` });
      }
    const key = PACKAGE_KEYS[runner];
    const manifest = join(base, "package.json");
    if (key && read(manifest) !== null) addRef({ path: manifest, part: key, label: `${key} in ${manifest}` });
  }
}

// The flags naming a configuration file the runner reads instead of its usual ones (`jest -c
// jest.unit.config.js`, whose testPathIgnorePatterns then decides which tests run).
const CONFIG_FLAGS: Record<Runner, string[]> = {
  pytest: ["-c", "--config-file"],
  jest: ["-c", "--config"],
  vitest: ["-c", "--config"],
  mocha: ["--config"],
  ava: ["--config"],
};

// The configuration file a runner's command names, relative to the checkout (null: none, or inline JSON).
function configFileOf(runner: Runner, words: string[], dir: string): string | null {
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    const eq = w.indexOf("=");
    const flag = eq > 0 ? w.slice(0, eq) : w;
    if (!CONFIG_FLAGS[runner].includes(flag)) continue;
    const value = eq > 0 ? w.slice(eq + 1) : words[i + 1];
    if (!value || value.startsWith("{") || value.startsWith("-")) return null;
    return path.posix.normalize(join(dir === "." ? "" : dir, value));
  }
  return null;
}

// npm test · npm run x · npm run-script x · yarn x · yarn run x · pnpm x · pnpm run x, with --prefix/-C.
export function npmScriptOf(words: string[], dir: string): { dir: string; script: string } | null {
  const tool = words[0];
  if (tool !== "npm" && tool !== "yarn" && tool !== "pnpm") return null;
  let at = dir;
  const rest: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === "--") break;
    if (w === "--prefix" || w === "-C" || w === "--cwd" || w === "--dir") {
      at = path.posix.normalize(join(at, words[++i] ?? "."));
      continue;
    }
    if (w.startsWith("-")) continue;
    rest.push(w);
  }
  const [verb, name] = rest;
  if (!verb) return null;
  if (verb === "run" || verb === "run-script") return name ? { dir: at, script: name } : null;
  if (["test", "t", "tst"].includes(verb)) return { dir: at, script: "test" };
  if (verb === "start" || verb === "stop" || verb === "restart") return { dir: at, script: verb };
  // yarn x and pnpm x run a script x; npm x is one of npm's own commands.
  const OWN = ["install", "i", "add", "remove", "ci", "exec", "dlx", "x", "why", "list", "ls", "init", "create"];
  if (tool !== "npm" && !OWN.includes(verb)) return { dir: at, script: verb };
  return null;
}

function makeTargetsOf(
  words: string[],
  dir: string,
  read: Read,
): { file: string; dir: string; targets: string[]; isJust: boolean } | null {
  const tool = words[0];
  const isJust = tool === "just";
  if (tool !== "make" && tool !== "gmake" && !isJust) return null;
  let at = dir;
  let file: string | null = null;
  const targets: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === "-C" || w === "--directory" || w === "-d" || w === "--working-directory")
      at = join(at, words[++i] ?? ".");
    else if (w === "-f" || w === "--file" || w === "--justfile") file = words[++i] ?? null;
    else if (w.startsWith("-") || w.includes("=")) continue;
    else targets.push(w);
  }
  const candidates = isJust ? ["justfile", "Justfile", ".justfile"] : ["GNUmakefile", "makefile", "Makefile"];
  const found = file ? join(at, file) : candidates.map((c) => join(at, c)).find((c) => read(c) !== null);
  if (!found) return null;
  const text = read(found) ?? "";
  if (targets.length === 0) {
    const first = firstTarget(text, isJust);
    if (first) targets.push(first);
  }
  return { file: found, dir: at, targets, isJust };
}

const TARGET_LINE = /^([A-Za-z0-9_.\-/]+)(?:\s+[^:=]*)?\s*:(?!=)/;

function firstTarget(text: string, isJust: boolean): string | null {
  for (const line of text.split("\n")) {
    const m = TARGET_LINE.exec(line);
    if (m && !m[1].startsWith(".") && (!isJust || !line.startsWith(" "))) return m[1];
  }
  return null;
}

// The commands of a target's recipe (make: tab-indented lines after `target:`; just: indented lines).
function recipeOf(text: string, target: string, isJust: boolean): string[] {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = TARGET_LINE.exec(lines[i]);
    if (!m || m[1] !== target) continue;
    const inline = lines[i].split(";").slice(1).join(";").trim();
    if (!isJust && inline) out.push(inline);
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j];
      if (isJust ? !/^\s+\S/.test(l) : !l.startsWith("\t")) break;
      out.push(l.trim().replace(/^[@+-]+/, ""));
    }
  }
  return out;
}

// A gate file the change edited, and the checks it decides for.
export type GateEdit = { path: string; parts: (string | null)[]; labels: string[]; checks: string[] };

// Which gate files of which checks the change edited: a whole file that changed, a part whose text differs
// between the start commit and the change, a runner configuration file the change added, changed or deleted.
export function editedGateFiles(input: {
  changes: readonly FileChange[];
  gateFiles: ReadonlyMap<string, GateFiles>;
  readStart: Read;
  readHead: Read;
  matches: (glob: string, file: string) => boolean;
}): GateEdit[] {
  const changed = new Set(input.changes.map((c) => c.path));
  const edits = new Map<string, GateEdit>();
  const note = (file: string, part: string | null, label: string, checkId: string) => {
    const edit = edits.get(file) ?? { path: file, parts: [], labels: [], checks: [] };
    if (!edit.parts.includes(part)) edit.parts.push(part);
    if (!edit.labels.includes(label)) edit.labels.push(label);
    if (!edit.checks.includes(checkId)) edit.checks.push(checkId);
    edits.set(file, edit);
  };
  for (const [checkId, files] of input.gateFiles) {
    for (const ref of files.refs) {
      // Changed as a path of the change, or read otherwise at the two versions: the reads go through the links
      // the tree holds, so a gate file behind a folder the change made (or retargeted) a link is its edit too.
      if (!changed.has(ref.path) && input.readStart(ref.path) === input.readHead(ref.path)) continue;
      if (
        ref.part !== null &&
        partOf(input.readStart(ref.path), ref.part) === partOf(input.readHead(ref.path), ref.part)
      )
        continue;
      note(ref.path, ref.part, ref.label, checkId);
    }
    for (const c of input.changes)
      for (const g of files.globs) if (input.matches(g.glob, c.path)) note(c.path, null, c.path, checkId);
  }
  return [...edits.values()];
}
