// Placeholders in commands and built-in parameters (SPEC Part 2): `{{results_dir}}`, `{{checks_dir}}`,
// `{{assets_dir}}`, each the absolute path of a directory of this run. A placeholder is `{{name}}` with a
// plain identifier inside, so `{{.State}}` (a Go template) or `${{ x }}`-like text that is no identifier
// stays as it is. An unknown name or a `{TODO: …}` blank is refused when saved and an error at run time.
import { shellQuote } from "./shell-quote";

export type PlaceholderDirs = { results_dir: string; checks_dir: string | null; assets_dir: string | null };

export const PLACEHOLDER_NAMES = ["results_dir", "checks_dir", "assets_dir"] as const;
type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number];

// The environment variable carrying each placeholder's directory.
export const PLACEHOLDER_ENV: Record<PlaceholderName, string> = {
  results_dir: "GATEHOUSE_RESULTS_DIR",
  checks_dir: "GATEHOUSE_CHECKS_DIR",
  assets_dir: "GATEHOUSE_ASSETS_DIR",
};

const WHY_MISSING: Record<PlaceholderName, string> = {
  results_dir: "this run has no results directory",
  checks_dir: "this run has no check sources (the Work has none), so there is no checks directory",
  assets_dir: "this run has no assets directory",
};

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
// A template blank such as {TODO: the test command} (not ${TODO} or a regex like \{TODO[^}]*\}).
export const TODO_BLANK = /(?<![$\\])\{\s*TODO\s*:[^}]*\}/i;

const isKnown = (name: string): name is PlaceholderName => (PLACEHOLDER_NAMES as readonly string[]).includes(name);

// Why the text cannot be saved (an unknown placeholder, a {TODO: …} blank), or null when it can.
export function placeholderProblem(text: string): string | null {
  if (TODO_BLANK.test(text)) return "a {TODO: …} blank is left in it: fill it in first";
  for (const m of text.matchAll(PLACEHOLDER))
    if (!isKnown(m[1])) return `unknown placeholder {{${m[1]}}}: use {{results_dir}}, {{checks_dir}} or {{assets_dir}}`;
  return null;
}

// Thrown at run time when a placeholder cannot be expanded (the check's verdict is then `error`).
export class PlaceholderError extends Error {}

function expandWith(text: string, dirs: PlaceholderDirs, quote: (value: string) => string): string {
  const problem = TODO_BLANK.test(text) ? "a {TODO: …} blank is left in it" : null;
  if (problem) throw new PlaceholderError(problem);
  return text.replace(PLACEHOLDER, (_whole, name: string) => {
    if (!isKnown(name)) throw new PlaceholderError(`unknown placeholder {{${name}}}`);
    const dir = dirs[name];
    if (dir === null) throw new PlaceholderError(`{{${name}}}: ${WHY_MISSING[name]}`);
    return quote(dir);
  });
}

// The text with every placeholder replaced by its directory, as is (for built-in parameters).
// Throws PlaceholderError for an unknown placeholder, a blank, or a directory this run does not have.
export function expandPlaceholders(text: string, dirs: PlaceholderDirs): string {
  return expandWith(text, dirs, (dir) => dir);
}

// The same for a shell command: each directory single-quoted, so a space or `$` in it is only a path.
export function expandCommandPlaceholders(command: string, dirs: PlaceholderDirs): string {
  return expandWith(command, dirs, shellQuote);
}
