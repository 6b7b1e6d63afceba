// The files a stage built-in reads and writes, through the checkout's safe file reader: a path relative to
// {{results_dir}} (or starting with {{assets_dir}}/ or {{checks_dir}}/) is walked name by name from that
// folder, never through a symbolic or hard link, so a committed link cannot lead a read out of the checkout.
import type { PlaceholderDirs } from "../../gates/placeholders";
import { listCheckoutFolder, readCheckoutFile, writeCheckoutFile } from "../checkout/checkout-files";
import { formatBytes } from "../output/text";
import { MAX_FILE_BYTES, type BuiltinAnswer, type BuiltinIo } from "./builtin-io";

type Place = { root: string; rel: string } | { reason: string };

function placeOf(raw: string, dirs: PlaceholderDirs): Place {
  const m = /^\{\{\s*(results_dir|assets_dir|checks_dir)\s*\}\}\/?(.*)$/s.exec(raw);
  if (!m) return { root: dirs.results_dir, rel: raw };
  const root = dirs[m[1] as keyof PlaceholderDirs];
  if (root === null) return { reason: `{{${m[1]}}}: this run has no such directory` };
  return { root, rel: m[2] };
}

// The file's text, or the answer that ends the check: missing or empty fails it (the work did not write
// it); a link, a path out or a file too large is an error (it could not be checked).
export function readText(raw: string, io: BuiltinIo, opts: { allowEmpty?: boolean } = {}): string | BuiltinAnswer {
  const place = placeOf(raw, io.dirs);
  if ("reason" in place) return { verdict: "error", message: `${raw}: ${place.reason}` };
  const read = readCheckoutFile(place.root, place.rel, { maxBytes: MAX_FILE_BYTES });
  if (read.kind === "missing") return { verdict: "failed", message: `${raw}: not found` };
  if (read.kind === "refused") return { verdict: "error", message: `${raw}: ${read.reason}` };
  io.log(`reading ${raw} (${formatBytes(read.size)})`);
  if (read.size === 0 && !opts.allowEmpty) return { verdict: "failed", message: `${raw}: exists but is empty` };
  return read.bytes.toString("utf8");
}

export const isAnswer = (r: unknown): r is BuiltinAnswer => typeof r === "object" && r !== null && "verdict" in r;

export function listFiles(rel: string, io: BuiltinIo): string[] | BuiltinAnswer {
  const listed = listCheckoutFolder(io.dirs.results_dir, rel);
  if (listed.kind === "missing") return { verdict: "failed", message: `${rel}/: not found` };
  if (listed.kind === "refused") return { verdict: "error", message: `${rel}/: ${listed.reason}` };
  return listed.files;
}

export function writeResult(rel: string, text: string, io: BuiltinIo): BuiltinAnswer | null {
  const written = writeCheckoutFile(io.dirs.results_dir, rel, text, { ownedLikeRoot: true });
  return written.kind === "refused" ? { verdict: "error", message: `${rel}: ${written.reason}` } : null;
}
