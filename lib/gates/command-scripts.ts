// Which files of the checkout a check's command runs, read from the command as bash words. The rule
// (README, "Proof rows"): in each simple command — split at &&, ||, ;, |, & and line breaks, leading
// VAR=value assignments skipped — the script is X in
//   bash X · sh X · source X · . X · node X · python X · python3 X · npx tsx X · tsx X · ./X · dir/X
// (options before X are skipped; `bash -c`, `node -e`, `python -m` and the like run no file). A `cd DIR`
// with a plain DIR applies to the commands after it. X is resolved against the check's cwd and the cd;
// words with $, `, globs or ~ and paths that leave the checkout are not followed. Pure: whether X is a
// file of the checkout is the caller's question.
import path from "node:path";

type Word = { text: string; isPlain: boolean };
type Simple = Word[];

const SEPARATORS = ["&&", "||", ";;", ";", "|&", "|", "&", "\n"];

// Bash words of a command: quotes and backslashes removed, separators and redirections as their own words.
// A word is "plain" when nothing in it needs expanding ($, backticks, globs, ~ at the start).
function splitCommands(command: string): Simple[] {
  const commands: Simple[] = [[]];
  let current = "";
  let isPlain = true;
  let hasWord = false;
  const endWord = () => {
    if (hasWord) commands.at(-1)!.push({ text: current, isPlain });
    current = "";
    isPlain = true;
    hasWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === "#" && !hasWord) {
      while (i < command.length && command[i] !== "\n") i++;
      i--;
      continue;
    }
    if (c === "\\" && i + 1 < command.length) {
      if (command[i + 1] !== "\n") {
        current += command[i + 1];
        hasWord = true;
      }
      i++;
      continue;
    }
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      const stop = end === -1 ? command.length : end;
      current += command.slice(i + 1, stop);
      hasWord = true;
      i = stop;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === "\\" && j + 1 < command.length) {
          j++;
          current += command[j];
        } else {
          if (command[j] === "$" || command[j] === "`") isPlain = false;
          current += command[j];
        }
      }
      hasWord = true;
      i = j;
      continue;
    }
    const separator = SEPARATORS.find((s) => command.startsWith(s, i));
    if (separator) {
      endWord();
      commands.push([]);
      i += separator.length - 1;
      continue;
    }
    if (c === " " || c === "\t") {
      endWord();
      continue;
    }
    // Subshells and groups: what is inside is read as commands of their own.
    if (c === "(" || c === ")" || ((c === "{" || c === "}") && !hasWord && /[\s;]|$/.test(command[i + 1] ?? ""))) {
      endWord();
      commands.push([]);
      continue;
    }
    if (c === "$" || c === "`" || c === "*" || c === "?" || c === "[" || (c === "~" && !hasWord)) isPlain = false;
    current += c;
    hasWord = true;
  }
  endWord();
  return commands.filter((words) => words.length > 0);
}

const REDIRECT = /^\d*(?:[<>]|>>|<<|&>|>&|<&)/;

// Options of the interpreters that take the next word as their value.
export const TAKES_VALUE: Record<"node" | "python" | "bash", ReadonlySet<string>> = {
  node: new Set([
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "--env-file",
    "-C",
    "--conditions",
  ]),
  python: new Set(["-W", "-X", "-Q"]),
  bash: new Set(["-o", "-O", "--rcfile", "--init-file"]),
};
// Options after which no file is run (the code is inline or a module).
const INLINE: Record<string, Set<string>> = {
  node: new Set(["-e", "--eval", "-p", "--print", "-i", "--interactive", "--test", "--run"]),
  python: new Set(["-c", "-m"]),
  bash: new Set(["-c", "-s", "-i"]),
};

function interpreterOf(name: string): "node" | "python" | "bash" | null {
  if (name === "node" || name === "tsx") return "node";
  if (/^python(3(\.\d+)?)?$/.test(name)) return "python";
  if (name === "bash" || name === "sh" || name === "dash" || name === "zsh") return "bash";
  return null;
}

// The word naming the script a simple command runs, or null.
function scriptWord(words: Word[]): Word | null {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i].text)) i++;
  if (words[i]?.text === "exec" || words[i]?.text === "time" || words[i]?.text === "command") i++;
  const head = words[i];
  if (!head) return null;
  if (head.text === "source" || head.text === ".") return words[i + 1] ?? null;
  if (head.text === "npx" || head.text === "pnpx") {
    i++;
    while (words[i]?.text.startsWith("-")) i++;
    if (words[i]?.text !== "tsx") return null;
  }
  const kind = interpreterOf(words[i]?.text ?? "");
  if (kind) {
    for (i++; i < words.length; i++) {
      const w = words[i].text;
      if (REDIRECT.test(w)) return null;
      if (!w.startsWith("-") || w === "-") break;
      const [flag] = w.split("=");
      if (INLINE[kind].has(flag)) return null;
      if (kind === "bash" && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w)) return null;
      if (TAKES_VALUE[kind].has(w)) i++;
    }
    return words[i] ?? null;
  }
  // A path run as a command: ./X or dir/X (not a bare name looked up in PATH).
  if (head.text.includes("/") && !head.text.startsWith("/")) return head;
  return null;
}

// Checkout-relative paths of the scripts a command runs, in the order they appear (no duplicates).
export function scriptsOfCommand(command: string, cwd = ""): string[] {
  const found: string[] = [];
  let dir = normalizeInside(cwd);
  for (const words of splitCommands(command)) {
    if (dir === null) break;
    if (words[0]?.text === "cd") {
      const target = words[1];
      dir = target?.isPlain && words.length === 2 ? normalizeInside(path.posix.join(dir, target.text)) : null;
      continue;
    }
    const word = scriptWord(words);
    if (!word?.isPlain || word.text === "" || word.text.startsWith("/")) continue;
    const file = normalizeInside(path.posix.join(dir, word.text));
    if (file && file !== "." && !found.includes(file)) found.push(file);
  }
  return found;
}

// The simple commands of a command with the directory each runs in (plain `cd DIR` followed, as above);
// stops at a `cd` it cannot follow. For reading what a command runs beyond files: npm scripts, make targets,
// test runners. `env`: its leading VAR=value words.
export type SimpleCommand = { dir: string; words: string[]; env: string[] };

export function commandsOf(command: string, cwd = ""): SimpleCommand[] {
  const found: SimpleCommand[] = [];
  let dir = normalizeInside(cwd);
  for (const words of splitCommands(command)) {
    if (dir === null) break;
    if (words[0]?.text === "cd") {
      const target = words[1];
      dir = target?.isPlain && words.length === 2 ? normalizeInside(path.posix.join(dir, target.text)) : null;
      continue;
    }
    let i = 0;
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i].text)) i++;
    const env = words.slice(0, i).map((w) => w.text);
    if (words[i]?.text === "exec" || words[i]?.text === "time" || words[i]?.text === "command") i++;
    if (i < words.length) found.push({ dir, words: words.slice(i).map((w) => w.text), env });
  }
  return found;
}

// How many simple commands a command holds besides its `cd`s (a test selection needs exactly one runner).
export function countCommands(command: string): number {
  return splitCommands(command).filter((words) => words[0]?.text !== "cd").length;
}

function normalizeInside(p: string): string | null {
  if (p.startsWith("/")) return null;
  const n = path.posix.normalize(p || ".");
  if (n === ".." || n.startsWith("../")) return null;
  return n === "./" ? "." : n.replace(/\/$/, "");
}
