// Replaces secret values with *** in output: whole, split across writes, line by line for multi-line
// values, and in base64 (on its own, inside a longer base64 text at any alignment, and wrapped over
// several lines as `base64` prints it). Matching is on the text as SHOWN: escape sequences (CSI such as
// colours and cursor moves, OSC such as hyperlinks and titles, DCS/APC/PM/SOS, two-byte escapes) and
// control characters other than line feed and tab are invisible, so a secret split by them is found and
// the whole span, escapes included, becomes ***; a backspace is also read as erasing the character
// before it. Enough visible bytes to complete a match are held back (with the invisible bytes among
// them, compacted away if they grow past a bound) until the next chunk shows whether they do.
import type { OutputMasker } from "./masker";

const MASK = Buffer.from("***");
const MIN_FORM = 6;
// Invisible bytes kept back beyond the visible hold before they are dropped from the held output.
export const MAX_INVISIBLE_HOLD = 256 * 1024;
// Control characters shown as nothing (line feed and tab are visible; ESC begins a sequence).
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

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
    // Compared with the visible text, so a value's own control characters (a CR before LF) do not count.
    this.plain = [...new Set([...plain].map((p) => p.replace(new RegExp(CONTROL, "g"), "")))]
      .filter((p) => p.length > 0)
      .map((p) => Buffer.from(p, "utf8"));
    this.encoded = [...encoded].map((p) => Buffer.from(p, "latin1"));
    const longest = Math.max(0, ...this.plain.map((p) => p.length), ...this.encoded.map((p) => p.length));
    // A wrapped base64 form can span a few line breaks more than its length.
    this.hold = longest === 0 ? 0 : longest + Math.ceil(longest / 60) * 2;
  }

  push(chunk: Buffer): Buffer {
    if (this.hold === 0) return chunk;
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const shown = project(data, "keep");
    // Hold back the last `hold` visible bytes (and anything after them, an unfinished escape included).
    const heldFrom = shown.text.length > this.hold ? rawAt(shown, shown.text.length - this.hold) : 0;
    const { out, consumed } = this.mask(data, Math.min(heldFrom, shown.pendingFrom), shown);
    this.carry = Buffer.from(data.subarray(consumed));
    // Escapes between held visible bytes cannot grow the hold without bound: past it, they are dropped.
    if (this.carry.length > this.hold * 4 + MAX_INVISIBLE_HOLD) this.carry = visibleOnly(this.carry);
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
  private mask(data: Buffer, limit: number, shown = project(data, "keep")): { out: Buffer; consumed: number } {
    let stop = Math.min(Math.max(limit, 0), data.length);
    // Plain output (line breaks its only control bytes) takes the quicker way for the wrapped forms.
    const wrapped = shown.isIdentity
      ? findAcrossLines(data, this.encoded)
      : findAcrossLines(shown.text, this.encoded).map(([a, b]) => [shown.rawAt(a), shown.rawAt(b - 1) + 1] as Range);
    const ranges = [...findProjected(shown, this.plain), ...wrapped];
    if (data.includes(8)) ranges.push(...findProjected(project(data, "keep", true), this.plain));
    const parts: Buffer[] = [];
    let pos = 0;
    for (const [start, end] of mergeRanges(ranges)) {
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

// The visible text of some output and, for each of its bytes, where it is in the output. pendingFrom:
// where an escape sequence the data ends inside begins (data.length when none). Line feeds are kept
// ("keep") or removed too ("drop": for base64 wrapped over lines). With `erase`, a backspace removes
// the character before it on its line, as a terminal shows it.
type Projection = { text: Buffer; rawAt: (k: number) => number; pendingFrom: number; isIdentity: boolean };

const SPECIAL_KEEP = /[\x00-\x08\x0b-\x1f\x7f]/g;
const SPECIAL_DROP = /[\x00-\x08\x0a-\x1f\x7f]/g;
const identityAt = (k: number) => k;

function project(data: Buffer, newlines: "keep" | "drop", erase = false): Projection {
  const special = newlines === "keep" ? SPECIAL_KEEP : SPECIAL_DROP;
  const str = data.toString("latin1");
  special.lastIndex = 0;
  if (!special.test(str)) return { text: data, rawAt: identityAt, pendingFrom: data.length, isIdentity: true };
  return erase ? projectErasing(data, newlines) : projectRuns(data, str, special);
}

// Runs of visible bytes copied whole; a match's offsets map back through the runs' starts.
function projectRuns(data: Buffer, str: string, special: RegExp): Projection {
  const text = Buffer.allocUnsafe(data.length);
  const runText: number[] = [];
  const runRaw: number[] = [];
  let n = 0;
  let from = 0;
  let pendingFrom = data.length;
  const take = (to: number) => {
    if (to <= from) return;
    runText.push(n);
    runRaw.push(from);
    // Buffer.copy costs more than a loop for the short runs between escapes.
    if (to - from > 64) {
      data.copy(text, n, from, to);
      n += to - from;
    } else for (let j = from; j < to; j++) text[n++] = data[j];
  };
  special.lastIndex = 0;
  for (let m = special.exec(str); m !== null; m = special.exec(str)) {
    const at = m.index;
    take(at);
    let next = at + 1;
    if (data[at] === 0x1b) {
      const end = escapeEnd(data, at);
      if (end === -1) {
        pendingFrom = at;
        break;
      }
      next = end;
    }
    from = next;
    special.lastIndex = next;
  }
  if (pendingFrom === data.length) take(data.length);
  const rawAt = (k: number): number => {
    let lo = 0;
    let hi = runText.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (runText[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    return runRaw[lo] + (k - runText[lo]);
  };
  return { text: text.subarray(0, n), rawAt, pendingFrom, isIdentity: false };
}

// Byte by byte, a backspace removing the character before it on its line (only when one is present).
function projectErasing(data: Buffer, newlines: "keep" | "drop"): Projection {
  const text = Buffer.allocUnsafe(data.length);
  const map = new Uint32Array(data.length);
  let n = 0;
  let lineStart = 0;
  let i = 0;
  let pendingFrom = data.length;
  while (i < data.length) {
    const b = data[i];
    if (b === 0x1b) {
      const end = escapeEnd(data, i);
      if (end === -1) {
        pendingFrom = i;
        break;
      }
      i = end;
      continue;
    }
    if (b === 10) {
      if (newlines === "keep") {
        text[n] = b;
        map[n++] = i;
      }
      lineStart = n;
    } else if (b === 8) {
      // Remove the previous character (all its UTF-8 bytes), not past the start of the line.
      while (n > lineStart && (text[n - 1] & 0xc0) === 0x80) n--;
      if (n > lineStart) n--;
    } else if ((b >= 0x20 && b !== 0x7f) || b === 9) {
      text[n] = b;
      map[n++] = i;
    }
    i++;
  }
  return { text: text.subarray(0, n), rawAt: (k) => map[k], pendingFrom, isIdentity: false };
}

// Where the escape sequence starting at `at` ends (exclusive), or -1 when the data ends inside it. Ends
// as the log viewer ends them: CSI at its final byte; OSC, DCS, SOS, PM and APC at BEL, ST (ESC \\), the
// next ESC or the end of the line.
function escapeEnd(data: Buffer, at: number): number {
  if (at + 1 >= data.length) return -1;
  const kind = data[at + 1];
  if (kind === 0x5b) {
    for (let j = at + 2; j < data.length; j++) {
      const c = data[j];
      if (c >= 0x40 && c <= 0x7e) return j + 1;
      if (c < 0x20 || c > 0x7e) return j; // not a CSI after all: the bytes so far are dropped
    }
    return -1;
  }
  if (kind === 0x5d || kind === 0x50 || kind === 0x58 || kind === 0x5e || kind === 0x5f) {
    for (let j = at + 2; j < data.length; j++) {
      const c = data[j];
      if (c === 0x07) return j + 1;
      if (c === 0x1b) return j + 1 < data.length ? (data[j + 1] === 0x5c ? j + 2 : j) : -1;
      if (c === 10) return j;
    }
    return -1;
  }
  if (kind >= 0x20 && kind <= 0x2f) {
    // ESC, intermediates, a final byte: a character-set selection such as `ESC ( B` (cargo prints it).
    for (let j = at + 1; j < data.length; j++) {
      const c = data[j];
      if (c >= 0x30 && c <= 0x7e) return j + 1;
      if (c < 0x20 || c > 0x2f) return j;
    }
    return -1;
  }
  return kind >= 0x30 && kind <= 0x7e ? at + 2 : at + 1;
}

// Only the visible bytes (and line feeds): the held output once its escapes grew past the bound. An
// unfinished escape at the end is kept while it is small, else dropped too (what follows it then shows
// as text, here and in the viewer alike).
function visibleOnly(data: Buffer): Buffer {
  const shown = project(data, "keep");
  if (shown.isIdentity) return data;
  const pending = data.subarray(shown.pendingFrom);
  return Buffer.concat([shown.text, pending.length > MAX_INVISIBLE_HOLD ? Buffer.alloc(0) : pending]);
}

function rawAt(shown: Projection, k: number): number {
  return shown.rawAt(k);
}

function findProjected(shown: Projection, patterns: Buffer[]): Range[] {
  if (patterns.length === 0) return [];
  const found = findAll(shown.text, patterns);
  if (shown.isIdentity) return found;
  return found.map(([s, e]) => [shown.rawAt(s), shown.rawAt(e - 1) + 1] as Range);
}

function findAll(data: Buffer, patterns: Buffer[], into: Range[] = []): Range[] {
  for (const p of patterns) {
    for (let at = data.indexOf(p); at !== -1; at = data.indexOf(p, at + p.length)) into.push([at, at + p.length]);
  }
  return into;
}

// Searches with line feeds removed, then maps matches back to the bytes they span (for output with no
// other control byte; the general way is project(…, "drop")).
function findAcrossLines(data: Buffer, patterns: Buffer[]): Range[] {
  if (patterns.length === 0) return [];
  const segments: [number, number][] = []; // [start in data, length]
  let from = 0;
  for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, nl + 1)) {
    segments.push([from, nl - from]);
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
