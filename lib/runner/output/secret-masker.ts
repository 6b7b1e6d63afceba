// Replaces secret values with *** in output, also when a value arrives split across two writes and
// in its base64 forms (whatever its alignment inside a longer base64 text). A few bytes that could
// begin a secret are held back until the next chunk shows whether they do.
import type { OutputMasker } from "./masker";

const MASK = Buffer.from("***");

// The base64 forms of a value: on its own, and the parts that stay the same whatever precedes it.
export function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const forms = new Set<string>();
  forms.add(bytes.toString("base64"));
  forms.add(bytes.toString("base64").replace(/=+$/, ""));
  for (let shift = 0; shift < 3; shift++) {
    const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
    const encoded = padded.toString("base64");
    // Drop the characters that mix in the unknown neighbours (before and after).
    const start = Math.ceil((shift * 4) / 3);
    const fullGroups = Math.floor(padded.length / 3) * 4;
    const core = encoded.slice(start, fullGroups);
    if (core.length >= 8) forms.add(core);
  }
  return [...forms].filter((f) => f.length >= 6);
}

export class SecretMasker implements OutputMasker {
  private readonly patterns: Buffer[];
  private readonly hold: number;
  private carry: Buffer = Buffer.alloc(0);

  constructor(values: readonly string[]) {
    const all = new Set<string>();
    for (const value of values) {
      if (value.length === 0) continue;
      all.add(value);
      for (const form of base64Forms(value)) all.add(form);
    }
    // Longest first, so a value wins over a shorter form that it contains.
    this.patterns = [...all].map((p) => Buffer.from(p, "utf8")).sort((a, b) => b.length - a.length);
    this.hold = Math.max(0, ...this.patterns.map((p) => p.length - 1));
  }

  push(chunk: Buffer): Buffer {
    if (this.patterns.length === 0) return chunk;
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const { out, consumed } = this.replace(data, data.length - this.hold);
    this.carry = Buffer.from(data.subarray(consumed));
    return out;
  }

  end(): Buffer {
    if (this.patterns.length === 0 || this.carry.length === 0) return Buffer.alloc(0);
    const { out } = this.replace(this.carry, this.carry.length);
    this.carry = Buffer.alloc(0);
    return out;
  }

  maskText(text: string): string {
    if (this.patterns.length === 0) return text;
    const data = Buffer.from(text, "utf8");
    return this.replace(data, data.length).out.toString("utf8");
  }

  // Masks every match starting before `limit`; returns the output and how many input bytes it covers.
  private replace(data: Buffer, limit: number): { out: Buffer; consumed: number } {
    const parts: Buffer[] = [];
    let pos = 0;
    for (;;) {
      let best = -1;
      let bestLen = 0;
      for (const p of this.patterns) {
        const at = data.indexOf(p, pos);
        if (at !== -1 && (best === -1 || at < best || (at === best && p.length > bestLen))) {
          best = at;
          bestLen = p.length;
        }
      }
      if (best === -1 || best >= Math.max(limit, pos)) break;
      parts.push(data.subarray(pos, best), MASK);
      pos = best + bestLen;
    }
    const end = Math.max(pos, Math.min(Math.max(limit, 0), data.length));
    parts.push(data.subarray(pos, end));
    return { out: Buffer.concat(parts), consumed: end };
  }
}

export function makeSecretMasker(values: string[]): OutputMasker {
  return new SecretMasker(values);
}
