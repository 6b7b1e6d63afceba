// Replaces secret values with *** in output: whole, split across writes, line by line for multi-line
// values, and in base64 (on its own, inside a longer base64 text at any alignment, and wrapped over
// several lines as `base64` prints it). Enough bytes to complete a match are held back until the next
// chunk shows whether they do. Each pattern is searched once per chunk (plus once per match).
import type { OutputMasker } from "./masker";

const MASK = Buffer.from("***");
const MIN_FORM = 6;

// The base64 characters that depend only on the value's bytes, when `shift` unknown bytes precede it.
function base64Core(bytes: Buffer, shift: number): string {
  const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString("base64");
  return encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
}

export function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const forms = new Set<string>([bytes.toString("base64"), bytes.toString("base64").replace(/=+$/, "")]);
  for (let shift = 0; shift < 3; shift++) forms.add(base64Core(bytes, shift));
  return [...forms].filter((f) => f.length >= MIN_FORM);
}

type Range = [number, number];

export class SecretMasker implements OutputMasker {
  private readonly plain: Buffer[];
  private readonly encoded: Buffer[];
  private readonly hold: number;
  private carry: Buffer = Buffer.alloc(0);

  constructor(values: readonly string[]) {
    const plain = new Set<string>();
    const encoded = new Set<string>();
    for (const value of values) {
      if (value.length === 0) continue;
      plain.add(value);
      for (const line of value.split(/\r?\n/)) if (line.trim().length >= MIN_FORM) plain.add(line);
      for (const form of base64Forms(value)) encoded.add(form);
    }
    this.plain = [...plain].map((p) => Buffer.from(p, "utf8"));
    this.encoded = [...encoded].map((p) => Buffer.from(p, "latin1"));
    const longest = Math.max(0, ...this.plain.map((p) => p.length), ...this.encoded.map((p) => p.length));
    // A wrapped base64 form can span a few line breaks more than its length.
    this.hold = longest === 0 ? 0 : longest + Math.ceil(longest / 60) * 2;
  }

  push(chunk: Buffer): Buffer {
    if (this.hold === 0) return chunk;
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const { out, consumed } = this.mask(data, data.length - this.hold);
    this.carry = Buffer.from(data.subarray(consumed));
    return out;
  }

  end(): Buffer {
    if (this.hold === 0 || this.carry.length === 0) return Buffer.alloc(0);
    const { out } = this.mask(this.carry, this.carry.length);
    this.carry = Buffer.alloc(0);
    return out;
  }

  maskText(text: string): string {
    if (this.hold === 0) return text;
    const data = Buffer.from(text, "utf8");
    return this.mask(data, data.length).out.toString("utf8");
  }

  // Releases the output up to `limit` with every match in it masked; returns the output and how many
  // input bytes it covers. A match that runs past `limit` is kept whole for the next round: another
  // value may overlap its end and not be complete yet, and once the match's start has been released
  // that value could never be recognised (its remainder would show).
  private mask(data: Buffer, limit: number): { out: Buffer; consumed: number } {
    let stop = Math.min(Math.max(limit, 0), data.length);
    const parts: Buffer[] = [];
    let pos = 0;
    for (const [start, end] of mergeRanges([...findAll(data, this.plain), ...findAcrossLines(data, this.encoded)])) {
      if (start >= stop) break;
      if (end > stop) {
        stop = start;
        break;
      }
      parts.push(data.subarray(pos, start), MASK);
      pos = end;
    }
    parts.push(data.subarray(pos, stop));
    return { out: Buffer.concat(parts), consumed: stop };
  }
}

function findAll(data: Buffer, patterns: Buffer[], into: Range[] = []): Range[] {
  for (const p of patterns) {
    for (let at = data.indexOf(p); at !== -1; at = data.indexOf(p, at + p.length)) into.push([at, at + p.length]);
  }
  return into;
}

// Searches with line breaks removed, then maps matches back to the bytes they span.
function findAcrossLines(data: Buffer, patterns: Buffer[]): Range[] {
  if (patterns.length === 0) return [];
  const segments: [number, number][] = []; // [start in data, length]
  let from = 0;
  for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, nl + 1)) {
    const end = nl > from && data[nl - 1] === 13 ? nl - 1 : nl;
    segments.push([from, end - from]);
    from = nl + 1;
  }
  if (segments.length === 0) return findAll(data, patterns);
  segments.push([from, data.length - from]);
  const joined = Buffer.allocUnsafe(segments.reduce((n, [, len]) => n + len, 0));
  const starts: number[] = [];
  let at = 0;
  for (const [start, len] of segments) {
    starts.push(at);
    data.copy(joined, at, start, start + len);
    at += len;
  }
  const toData = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return segments[lo][0] + (offset - starts[lo]);
  };
  return findAll(joined, patterns).map(([s, e]) => [toData(s), toData(e - 1) + 1] as Range);
}

function mergeRanges(ranges: Range[]): Range[] {
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Range[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] < last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

export function makeSecretMasker(values: string[]): OutputMasker {
  return new SecretMasker(values);
}
