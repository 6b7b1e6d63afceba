// The built-ins that read one file under the results directory: json_valid, file_exists, file_contains,
// min_words. A missing file fails the check (the work did not produce it); a path that leaves the results
// directory, or a file too large to read, is an error (the check could not be carried out).
import path from "node:path";
import { readCheckoutFile } from "../checkout/checkout-files";
import type { BuiltinParams } from "../../gates/builtins";
import { describeJsonError } from "../../gates/json-error";
import { formatBytes } from "../output/text";
import { MAX_FILE_BYTES, type BuiltinAnswer, type BuiltinIo } from "./builtin-io";
import { resolveResultPath } from "./result-paths";

type Read = { text: string; bytes: number } | BuiltinAnswer;

// The file's text, or the answer that ends the check (missing, refused, a directory, too large, empty).
async function readResult(raw: string, io: BuiltinIo, opts: { allowEmpty?: boolean } = {}): Promise<Read> {
  const at = resolveResultPath(raw, io.dirs);
  if (at.kind === "refused") return { verdict: "error", message: `${at.shown}: ${at.reason}` };
  if (at.kind === "missing") return { verdict: "failed", message: `${at.shown}: not found` };
  io.log(`reading ${at.shown} (${formatBytes(at.stat.size)})`);
  if (at.stat.isDirectory()) return { verdict: "failed", message: `${at.shown}: is a directory, not a file` };
  if (!at.stat.isFile()) return { verdict: "error", message: `${at.shown}: is not a regular file` };
  if (at.stat.size > MAX_FILE_BYTES)
    return {
      verdict: "error",
      message: `${at.shown}: ${formatBytes(at.stat.size)}, more than the ${formatBytes(
        MAX_FILE_BYTES,
      )} a built-in reads`,
    };
  if (at.stat.size === 0 && !opts.allowEmpty) return { verdict: "failed", message: `${at.shown}: exists but is empty` };
  // Read by descriptors from the directory's real path: a folder on the way swapped for a link since it was
  // resolved (the run-as user's to swap) is refused, never read through.
  const read = readCheckoutFile(at.root, path.relative(at.root, at.real), { maxBytes: MAX_FILE_BYTES });
  if (read.kind === "missing") return { verdict: "failed", message: `${at.shown}: not found` };
  if (read.kind === "refused") return { verdict: "error", message: `${at.shown}: ${read.reason}` };
  return { text: read.bytes.toString("utf8"), bytes: read.size };
}

const isAnswer = (r: Read): r is BuiltinAnswer => "verdict" in r;

export async function fileExists(p: BuiltinParams["file_exists"], io: BuiltinIo): Promise<BuiltinAnswer> {
  const at = resolveResultPath(p.path, io.dirs);
  if (at.kind === "refused") return { verdict: "error", message: `${at.shown}: ${at.reason}` };
  if (at.kind === "missing") return { verdict: "failed", message: `${at.shown}: not found` };
  if (at.stat.isDirectory()) return { verdict: "failed", message: `${at.shown}: is a directory, not a file` };
  if (at.stat.size === 0) return { verdict: "failed", message: `${at.shown}: exists but is empty` };
  return { verdict: "passed", message: `${at.shown}: exists (${formatBytes(at.stat.size)})` };
}

export async function jsonValid(p: BuiltinParams["json_valid"], io: BuiltinIo): Promise<BuiltinAnswer> {
  const read = await readResult(p.path, io);
  if (isAnswer(read)) return read;
  try {
    JSON.parse(read.text);
    return { verdict: "passed", message: `${p.path}: valid JSON (${formatBytes(read.bytes)})` };
  } catch {
    const where = describeJsonError(read.text);
    const line = /line (\d+), column (\d+)$/.exec(where);
    if (line) {
      const text = read.text.split("\n")[Number(line[1]) - 1] ?? "";
      const col = Number(line[2]);
      const from = Math.max(0, col - 60);
      io.log(`${line[1].padStart(5)} | ${text.slice(from, from + 120)}`);
      io.log(`${" ".repeat(5)} | ${" ".repeat(col - 1 - from)}^`);
    }
    return { verdict: "failed", message: `${p.path}: ${where}` };
  }
}

export async function fileContains(p: BuiltinParams["file_contains"], io: BuiltinIo): Promise<BuiltinAnswer> {
  const read = await readResult(p.path, io, { allowEmpty: true });
  if (isAnswer(read)) return read;
  const missing = p.strings.filter((s) => !read.text.includes(s));
  for (const s of p.strings) io.log(`${missing.includes(s) ? "missing" : "found  "} ${JSON.stringify(s)}`);
  if (missing.length === 0)
    return { verdict: "passed", message: `${p.path}: contains all ${p.strings.length} of the texts` };
  return {
    verdict: "failed",
    message: `${p.path}: does not contain ${missing.map((s) => JSON.stringify(s)).join(", ")}`,
  };
}

export async function minWords(p: BuiltinParams["min_words"], io: BuiltinIo): Promise<BuiltinAnswer> {
  const read = await readResult(p.path, io, { allowEmpty: true });
  if (isAnswer(read)) return read;
  const words = read.text.split(/\s+/).filter(Boolean).length;
  io.log(`${words} words, at least ${p.count} wanted`);
  return words >= p.count
    ? { verdict: "passed", message: `${p.path}: ${words} words (at least ${p.count})` }
    : { verdict: "failed", message: `${p.path}: ${words} words, fewer than ${p.count}` };
}
