// Where a built-in's `path` points, confined to the run's directories: relative paths are read from
// {{results_dir}}; a path naming {{assets_dir}} or {{checks_dir}} stays inside that one. `..`, an absolute
// path elsewhere, or a symlink whose target (realpath, at run time) is outside → the check errors.
import fs from "node:fs";
import path from "node:path";
import { isInside, resolveInside } from "../checkout/checkout-files";
import { expandPlaceholders, PlaceholderError, type PlaceholderDirs } from "../../gates/placeholders";

// found: `real` is the file's real path under `root` (the real path of the directory it is in, reached through
// no link the run-as user made), to be read from there by descriptors.
export type ResolvedPath =
  | { kind: "found"; shown: string; real: string; root: string; stat: fs.Stats }
  | { kind: "missing"; shown: string }
  | { kind: "refused"; shown: string; reason: string };

export function resolveResultPath(raw: string, dirs: PlaceholderDirs): ResolvedPath {
  const shown = raw;
  if (raw.includes("\0")) return { kind: "refused", shown, reason: "contains a NUL character" };
  let expanded: string;
  try {
    expanded = expandPlaceholders(raw, dirs);
  } catch (error) {
    if (error instanceof PlaceholderError) return { kind: "refused", shown, reason: error.message };
    throw error;
  }
  const roots = [dirs.results_dir, dirs.assets_dir, dirs.checks_dir].filter((d): d is string => d !== null);
  const candidate = path.resolve(dirs.results_dir, expanded);
  const root = roots.find((r) => isInside(path.resolve(r), candidate));
  if (!root) return { kind: "refused", shown, reason: "leaves the results directory (paths are relative to it)" };
  if (!fs.existsSync(root)) return { kind: "missing", shown };
  const where = resolveInside(root, candidate);
  if ("missing" in where) return { kind: "missing", shown };
  if ("refused" in where) return { kind: "refused", shown, reason: where.refused };
  if ("outside" in where) {
    const isLink = fs.lstatSync(candidate, { throwIfNoEntry: false })?.isSymbolicLink();
    return isLink && !fs.existsSync(candidate)
      ? { kind: "refused", shown, reason: `is a symlink to ${where.outside}, outside the results directory` }
      : {
          kind: "refused",
          shown,
          reason: `resolves to ${where.outside}, outside the results directory (a symlink out)`,
        };
  }
  // Not followed at its own name: a link swapped in since is not looked through (the read refuses it).
  return { kind: "found", shown, real: where.real, root: where.realRoot, stat: fs.lstatSync(where.real) };
}
