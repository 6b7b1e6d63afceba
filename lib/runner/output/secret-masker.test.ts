// SecretMasker: secret values (and their base64 forms) become *** in output that arrives in chunks —
// whole, split across two or more chunks at every point, several secrets at once, one a prefix of
// another, base64 on its own and embedded at each alignment — while output without a secret passes
// through byte-exact and only a bounded number of bytes is ever held back.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { NO_MASKING } from "./masker";
import { MAX_INVISIBLE_HOLD, SecretMasker, base64Forms, makeSecretMasker } from "./secret-masker";

const VALUE = "s3cr3t-value-42";
const B64 = Buffer.from(VALUE).toString("base64"); // "czNjcjN0LXZhbHVlLTQy" (15 bytes: no padding)

// Everything the masker releases for these chunks, end() included.
function maskChunks(masker: SecretMasker, chunks: (string | Buffer)[]): Buffer {
  const out: Buffer[] = [];
  for (const c of chunks) out.push(masker.push(typeof c === "string" ? Buffer.from(c) : c));
  out.push(masker.end());
  return Buffer.concat(out);
}

function mask(values: string[], chunks: (string | Buffer)[]): string {
  return maskChunks(new SecretMasker(values), chunks).toString("utf8");
}

// The base64 characters of `encoded` (the encoding of prefix + value + suffix, value starting at byte
// `offset`) whose 6 bits all come from the value: [first, end).
function valueDeterminedRange(offset: number, valueLength: number): { first: number; end: number } {
  return { first: Math.ceil((8 * offset) / 6), end: Math.floor((8 * (offset + valueLength)) / 6) };
}

describe("a value in output", () => {
  it("is replaced by *** wherever it occurs in one chunk, and the rest is untouched", () => {
    expect(mask([VALUE], [`before ${VALUE} after\n`])).toBe("before *** after\n");
    expect(mask([VALUE], [`${VALUE}${VALUE} and ${VALUE}`])).toBe("****** and ***");
    expect(mask([VALUE], [VALUE])).toBe("***");
  });

  it("is masked when split across two chunks, at every split point", () => {
    for (let i = 1; i < VALUE.length; i++) {
      const got = mask([VALUE], [`key=${VALUE.slice(0, i)}`, `${VALUE.slice(i)} done\n`]);
      expect(got, `split at ${i}`).toBe("key=*** done\n");
    }
  });

  it("is masked when split across three chunks, at every pair of split points", () => {
    for (let i = 1; i < VALUE.length; i++) {
      for (let j = i + 1; j < VALUE.length; j++) {
        const got = mask([VALUE], [`a ${VALUE.slice(0, i)}`, VALUE.slice(i, j), `${VALUE.slice(j)} z`]);
        expect(got, `split at ${i} and ${j}`).toBe("a *** z");
      }
    }
  });

  it("is masked when it arrives one byte per chunk, and when the chunks are empty in between", () => {
    const bytes = [...Buffer.from(`>${VALUE}<`)].map((b) => Buffer.from([b]));
    expect(mask([VALUE], bytes)).toBe(">***<");
    const withEmpties = bytes.flatMap((b) => [b, Buffer.alloc(0)]);
    expect(mask([VALUE], withEmpties)).toBe(">***<");
  });

  it("a multi-byte UTF-8 value is masked when a chunk boundary falls inside one of its characters", () => {
    const value = "pässwörd-🔑-9";
    const bytes = Buffer.from(`x ${value} y`);
    for (let i = 1; i < bytes.length; i++) {
      const got = maskChunks(new SecretMasker([value]), [bytes.subarray(0, i), bytes.subarray(i)]).toString("utf8");
      expect(got, `split at byte ${i}`).toBe("x *** y");
    }
  });

  it("is masked in a long chunk near its end (the part that may begin a secret is held back, not released)", () => {
    const filler = "x".repeat(100_000);
    for (const cut of [1, 7, VALUE.length - 1]) {
      const got = mask([VALUE], [filler + VALUE.slice(0, cut), VALUE.slice(cut) + filler]);
      expect(got).toBe(`${filler}***${filler}`);
    }
  });
});

describe("several secrets", () => {
  it("two values adjacent to each other are both masked", () => {
    const a = "alpha-secret-1";
    const b = "bravo-secret-2";
    expect(mask([a, b], [`${a}${b}`])).toBe("******");
    expect(mask([a, b], [`[${b}] [${a}]`])).toBe("[***] [***]");
  });

  it("two overlapping values: neither value survives, split or not", () => {
    const a = "aaaa-1111";
    const b = "1111-bbbb";
    const text = `<${a.slice(0, 5)}${b}>`; // "<aaaa-1111-bbbb>": a and b share "1111"
    for (let i = 0; i <= text.length; i++) {
      const got = mask([a, b], [text.slice(0, i), text.slice(i)]);
      expect(got, `split at ${i}`).toContain("***");
      expect(got, `split at ${i}`).not.toContain(a);
      expect(got, `split at ${i}`).not.toContain(b);
      expect(got.startsWith("<") && got.endsWith(">")).toBe(true);
    }
  });

  it("two values sharing a few bytes, the second not yet complete when the first is: nothing of \
either shows, at any split", () => {
    // Once released, the start of the first match would be gone and the second could not be recognised.
    for (const [a, b] of [
      ["ceacbadc", "cffcefbab"],
      ["cbaaaaaeeaa", "aaedcedaaac"],
      ["adceddaadbb", "bbfaccecafba"],
    ]) {
      const shared = [...Array(a.length).keys()]
        .map((k) => a.length - k)
        .find((k) => b.startsWith(a.slice(a.length - k)))!;
      const text = `${"lead ".repeat(8)}|${a}${b.slice(shared)}|${" tail".repeat(8)}`;
      for (let i = 1; i < text.length; i++) {
        for (const j of [i + 1, i + 3, i + 7]) {
          const got = mask([a, b], [text.slice(0, i), text.slice(i, j), text.slice(j)]);
          expect(got.slice(got.indexOf("|") + 1, got.lastIndexOf("|")), `${a}+${b} split at ${i},${j}`).toMatch(
            /^(\*\*\*)+$/,
          );
        }
      }
    }
  });

  it("a value that is a prefix of another: the longer one is masked whole (split anywhere), the \
shorter on its own", () => {
    const short = "abcdef12";
    const long = "abcdef1234567";
    for (const values of [
      [short, long],
      [long, short],
    ]) {
      expect(mask(values, [`x ${long} y`])).toBe("x *** y");
      expect(mask(values, [`x ${short} y`])).toBe("x *** y");
      expect(mask(values, [`x ${short}`])).toBe("x ***");
      const text = `x ${long} y`;
      for (let i = 1; i < text.length; i++) {
        expect(mask(values, [text.slice(0, i), text.slice(i)]), `split at ${i}`).toBe("x *** y");
      }
    }
  });

  it("empty values are ignored (they would mask everything)", () => {
    expect(mask(["", VALUE], ["hello world"])).toBe("hello world");
    expect(mask([""], ["hello world"])).toBe("hello world");
  });
});

describe("the base64 form of a value", () => {
  it("base64Forms lists the padded and unpadded encodings; every form is at least 6 characters", () => {
    for (const value of ["s3cr3t-value-42", "s3cr3t-value-4", "s3cr3t-value-"]) {
      const encoded = Buffer.from(value).toString("base64");
      const forms = base64Forms(value);
      expect(forms).toContain(encoded);
      expect(forms).toContain(encoded.replace(/=+$/, ""));
      for (const f of forms) expect(f.length).toBeGreaterThanOrEqual(6);
    }
  });

  it("on its own, with and without padding, is masked", () => {
    for (const value of ["s3cr3t-value-42", "s3cr3t-value-4", "s3cr3t-value-"]) {
      const padded = Buffer.from(value).toString("base64");
      const unpadded = padded.replace(/=+$/, "");
      for (const form of new Set([padded, unpadded])) {
        const got = mask([value], [`token: ${form}\n`]);
        expect(got, `${value} as ${form}`).not.toContain(unpadded);
        expect(got).toContain("***");
        expect(got.startsWith("token: ")).toBe(true);
      }
    }
    expect(mask([VALUE], [`${B64}\n`])).toBe("***\n");
  });

  it("on its own, split across two chunks at every point, is masked", () => {
    const text = `b64=${B64};`;
    for (let i = 1; i < text.length; i++) {
      expect(mask([VALUE], [text.slice(0, i), text.slice(i)]), `split at ${i}`).toBe("b64=***;");
    }
  });

  describe("embedded in a longer base64 text (prefix + value + suffix encoded together)", () => {
    const values = ["s3cr3t-value-42", "another-Secret_value!", "pässwörd-🔑-9"];
    for (const value of values) {
      for (const prefixLength of [0, 1, 2, 3, 4, 5]) {
        it(`${JSON.stringify(value)} after ${prefixLength} byte(s): the characters that encode only \
the value are masked`, () => {
          const valueBytes = Buffer.from(value);
          for (const suffixLength of [0, 1, 2, 3]) {
            const prefix = Buffer.from("PREFIX".slice(0, prefixLength));
            const suffix = Buffer.from("~sfx".slice(0, suffixLength));
            const encoded = Buffer.concat([prefix, valueBytes, suffix]).toString("base64");
            const { first, end } = valueDeterminedRange(prefix.length, valueBytes.length);
            const determined = encoded.slice(first, end);
            const what = `prefix ${prefixLength}, suffix ${suffixLength}: ${encoded}`;

            const got = mask([value], [`data: ${encoded}\n`]);
            expect(got, what).toContain("***");
            expect(got, what).not.toContain(determined);
            // At most a few value-only characters (< 3 bytes of it) stay visible at the edges.
            const maskedChars = encoded.length + "data: \n".length + 3 - got.length;
            expect(determined.length - maskedChars, what).toBeLessThanOrEqual(3);
            // The neighbours' own characters are kept.
            expect(got.startsWith(`data: ${encoded.slice(0, first)}`), what).toBe(true);

            // Split at every point, the result is the same.
            const text = `data: ${encoded}\n`;
            for (let i = 1; i < text.length; i++)
              expect(mask([value], [text.slice(0, i), text.slice(i)]), `${what}, split at ${i}`).toBe(got);
          }
        });
      }
    }
  });

  // The shortest allowed values (6–7 characters) have short base64 cores at some alignments; they are
  // still long enough to mask (`printf 'x%s' "$SECRET" | base64`).
  it("a 6- or 7-character value (the shortest allowed) is masked embedded in base64 at every alignment", () => {
    for (const value of ["abc123", "Pa55w0rd".slice(0, 7)]) {
      for (const prefixLength of [0, 1, 2]) {
        const prefix = Buffer.from("PP".slice(0, prefixLength));
        const encoded = Buffer.concat([prefix, Buffer.from(value), Buffer.from("~~")]).toString("base64");
        const { first, end } = valueDeterminedRange(prefix.length, value.length);
        const got = mask([value], [`${encoded}\n`]);
        expect(got, `${value} after ${prefixLength}: ${encoded}`).not.toContain(encoded.slice(first, end));
      }
    }
  });
});

describe("longer and multi-line values", () => {
  it("a multi-line value (a PEM-like key) is masked whole, split at every point", () => {
    const value = "-----BEGIN KEY-----\nMIIBOgIBAAJBAK\n-----END KEY-----";
    const text = `key:\n${value}\ndone\n`;
    for (let i = 1; i < text.length; i++)
      expect(mask([value], [text.slice(0, i), text.slice(i)]), `split at ${i}`).toBe("key:\n***\ndone\n");
  });

  it("a 64-character token and its one-line base64 are masked", () => {
    const value = `ghp_${"A1b2C3d4E5f6G7h8I9j0".repeat(3)}`;
    const b64 = Buffer.from(value).toString("base64");
    expect(mask([value], [`${value}\n${b64}\n`])).toBe("***\n***\n");
  });

  // GNU `base64` (and `openssl base64`, Python's encodebytes…) wrap their output at 76 columns, so the
  // base64 of a value of 58 bytes or more spans two lines: the masker searches across line breaks.
  it("a 64-character token's base64 wrapped at 76 columns (as `base64` prints it) is masked", () => {
    const value = `ghp_${"A1b2C3d4E5f6G7h8I9j0".repeat(3)}`;
    const b64 = Buffer.from(value).toString("base64");
    const wrapped = `${b64.slice(0, 76)}\n${b64.slice(76)}\n`;
    const got = mask([value], [wrapped]);
    expect(got).toContain("***");
    expect(got).not.toContain(b64.slice(0, 40));
  });
});

describe("output without a secret", () => {
  it("passes through byte-exact, invalid UTF-8 included, however it is chunked", () => {
    const masker = () => new SecretMasker([VALUE, "another-secret"]);
    const invalid = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0x0a, 0xf0, 0x9f, 0x92, 0x00, 0x80, 0xc0, 0xaf]);
    const data = Buffer.concat([
      Buffer.from("plain text\n"),
      invalid,
      randomBytes(10_000),
      Buffer.from(VALUE.slice(0, -1)),
      invalid,
    ]);
    expect(maskChunks(masker(), [data]).equals(data)).toBe(true);
    for (const size of [1, 2, 3, 7, 14, 100, 4096]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < data.length; at += size) chunks.push(data.subarray(at, at + size));
      expect(maskChunks(masker(), chunks).equals(data), `chunks of ${size}`).toBe(true);
    }
  });

  it("bytes around a masked value are kept exactly, invalid UTF-8 included", () => {
    const before = Buffer.from([0xff, 0xc3, 0x00]);
    const after = Buffer.from([0xe2, 0x82, 0xfe]);
    const got = maskChunks(new SecretMasker([VALUE]), [
      Buffer.concat([before, Buffer.from(VALUE.slice(0, 4))]),
      Buffer.concat([Buffer.from(VALUE.slice(4)), after]),
    ]);
    expect(got.equals(Buffer.concat([before, Buffer.from("***"), after]))).toBe(true);
  });

  it("with no secrets at all, push returns each chunk as it is and end() nothing", () => {
    const m = new SecretMasker([]);
    const chunk = Buffer.from([0xff, 0x00, 0x41]);
    expect(m.push(chunk)).toBe(chunk);
    expect(m.end().length).toBe(0);
    expect(m.maskText("anything")).toBe("anything");
    expect(NO_MASKING.push(chunk)).toBe(chunk);
    expect(NO_MASKING.maskText(VALUE)).toBe(VALUE);
  });
});

describe("end()", () => {
  it("releases the held-back bytes: a secret's beginning that never completed comes out as it was", () => {
    const m = new SecretMasker([VALUE]);
    const first = m.push(Buffer.from(`tail: ${VALUE.slice(0, 10)}`));
    const rest = m.end();
    expect(Buffer.concat([first, rest]).toString()).toBe(`tail: ${VALUE.slice(0, 10)}`);
    expect(rest.length).toBeGreaterThan(0);
    expect(m.end().length).toBe(0);
  });

  it("masks a whole secret still held back at the end (a short one behind a long one's hold)", () => {
    const long = "a-much-longer-secret-value-0123456789";
    const short = "short-7";
    const m = new SecretMasker([long, short]);
    const first = m.push(Buffer.from(`xx ${short}`));
    expect(first.toString()).not.toContain(short);
    expect(Buffer.concat([first, m.end()]).toString()).toBe("xx ***");
  });

  it("the masker can be used again after end()", () => {
    const m = new SecretMasker([VALUE]);
    expect(maskChunks(m, [`one ${VALUE.slice(0, 3)}`, `${VALUE.slice(3)}`]).toString()).toBe("one ***");
    expect(maskChunks(m, [`two ${VALUE}`]).toString()).toBe("two ***");
  });
});

describe("maskText", () => {
  it("masks values and base64 forms in a string, keeping the rest (unicode included)", () => {
    const m = makeSecretMasker([VALUE, "other-secret"]);
    expect(m.maskText(`ünïcødé ${VALUE} — ${B64} · other-secret 🔑`)).toBe("ünïcødé *** — *** · *** 🔑");
    expect(m.maskText("nothing here")).toBe("nothing here");
    expect(m.maskText("")).toBe("");
  });

  it("needs no end(): text that only begins a secret is returned as it is", () => {
    const m = new SecretMasker([VALUE]);
    expect(m.maskText(`ends with ${VALUE.slice(0, 12)}`)).toBe(`ends with ${VALUE.slice(0, 12)}`);
    expect(m.maskText(`ends with ${VALUE}`)).toBe("ends with ***");
  });

  it("does not disturb a stream in progress", () => {
    const m = new SecretMasker([VALUE]);
    const first = m.push(Buffer.from(`a ${VALUE.slice(0, 5)}`));
    expect(m.maskText(`b ${VALUE}`)).toBe("b ***");
    expect(Buffer.concat([first, m.push(Buffer.from(VALUE.slice(5))), m.end()]).toString()).toBe("a ***");
  });
});

describe("bounded memory", () => {
  it("50 MB in 64 KB chunks: the output equals the input when no secret occurs, and little is ever held back", () => {
    const values = [VALUE, "a-much-longer-secret-value-0123456789"];
    const m = new SecretMasker(values);
    const longest = Math.max(...values.flatMap((v) => [v, ...base64Forms(v)]).map((p) => Buffer.byteLength(p)));
    const chunkSize = 64 * 1024;
    // Each chunk ends with the beginning of a secret and the next one does not finish it, so the
    // masker has to hold bytes back at every boundary.
    const chunk = Buffer.alloc(chunkSize, "x");
    chunk.write(VALUE.slice(0, -1), chunkSize - VALUE.length + 1);
    const total = 50 * 1024 * 1024;
    let pushed = 0;
    let released = 0;
    let maxHeld = 0;
    let isSame = true;
    while (pushed < total) {
      const out = m.push(chunk);
      pushed += chunk.length;
      released += out.length;
      maxHeld = Math.max(maxHeld, pushed - released);
      if (isSame && out.length > 0 && out.indexOf("***") !== -1) isSame = false;
    }
    released += m.end().length;
    expect(isSame).toBe(true);
    expect(released).toBe(pushed);
    // At most the longest pattern plus room for the line breaks of a wrapped base64 form.
    expect(maxHeld).toBeLessThanOrEqual(longest + Math.ceil(longest / 60) * 2);
    expect(maxHeld).toBeGreaterThan(0);
  });

  // Output dense with the secret: every occurrence is masked and nothing else is lost. (Its speed is
  // measured by `npm run bench`, never asserted here.)
  it("masks every occurrence in 4 MB of output dense with the secret", () => {
    const m = new SecretMasker([VALUE]);
    const chunk = Buffer.from(`${VALUE}\n`.repeat(4096));
    let out = 0;
    for (let i = 0; i < 64; i++) out += m.push(chunk).length;
    out += m.end().length;
    expect(out).toBe(64 * 4096 * 4);
  });
});

// The attacker prints the value split by escape sequences or control characters, which a terminal or
// the log viewer does not show: what is shown joins the halves. The whole span becomes ***.
// The text a viewer shows: escape sequences (as the log viewer parses them) and control characters removed.
function shownText(t: string): string {
  return t
    .replace(
      /\x1b\[[0-9;:?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[ -/]+[0-~]|\x1b[@-Z\\-_]?/g,
      "",
    )
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}

describe("a value split by what the viewer does not show", () => {
  const S = VALUE;
  const VARIANTS: Record<string, string> = {
    "an SGR reset in the middle": `${S.slice(0, 8)}\x1b[0m${S.slice(8)}`,
    "a colour change in the middle": `${S.slice(0, 5)}\x1b[1;31m${S.slice(5)}\x1b[0m`,
    "several escapes": `\x1b[32m${S.slice(0, 3)}\x1b[0m\x1b[1m${S.slice(3, 9)}\x1b[22m\x1b[38;2;1;2;3m${S.slice(9)}`,
    "\\033[0m between every character": [...S].join("\x1b[0m"),
    "an OSC 8 hyperlink around the second half (BEL)": `${S.slice(0, 7)}\x1b]8;;https://x.test/\x07${S.slice(7)}\x1b]8;;\x07`,
    "an OSC 8 hyperlink with ST terminators": `\x1b]8;;https://x.test/\x1b\\${S.slice(0, 4)}\x1b]8;;\x1b\\${S.slice(4)}`,
    "an OSC title in the middle": `${S.slice(0, 6)}\x1b]0;a window title\x07${S.slice(6)}`,
    "cursor movement sequences": `${S.slice(0, 4)}\x1b[1C\x1b[2D\x1b[K${S.slice(4, 10)}\x1b[s\x1b[u${S.slice(10)}`,
    "a carriage return": `${S.slice(0, 9)}\r${S.slice(9)}`,
    "a lone control character (BEL, DEL)": `${S.slice(0, 3)}\x07${S.slice(3, 6)}\x7f${S.slice(6)}`,
    "a backspace shown as nothing": `${S.slice(0, 10)}\b${S.slice(10)}`,
    "a character erased by a backspace": `${S.slice(0, 10)}X\b${S.slice(10)}`,
    "a DCS string": `${S.slice(0, 2)}\x1bPq#0;2;0;0;0\x1b\\${S.slice(2)}`,
    "a character-set selection (ESC ( B, as cargo prints)": `${S.slice(0, 5)}\x1b(B${S.slice(5)}`,
  };

  for (const [name, printed] of Object.entries(VARIANTS)) {
    it(`${name}: masked in one write, split at every byte, and by maskText`, () => {
      const line = `token=${printed} end\n`;
      const whole = mask([S], [line]);
      // What a viewer shows: escapes and control characters gone. Only *** is left where the value was.
      expect(shownText(whole), name).toBe("token=*** end\n");
      const bytes = Buffer.from(line);
      for (let i = 1; i < bytes.length; i++) {
        const got = mask([S], [bytes.subarray(0, i), bytes.subarray(i)]);
        expect(got, `${name}, split at byte ${i}`).toBe(whole);
      }
      expect(new SecretMasker([S]).maskText(line)).toBe(whole);
    });
  }

  it("an escape sequence itself split across two writes, at every byte of it", () => {
    const printed = `${S.slice(0, 8)}\x1b]8;;https://example.test/a\x1b\\${S.slice(8)}`;
    const start = printed.indexOf("\x1b");
    const end = printed.indexOf("\\", start) + 1;
    for (let i = start; i <= end; i++) {
      const got = mask([S], [printed.slice(0, i), printed.slice(i)]);
      expect(got, `split at ${i}`).toBe("***");
    }
  });

  it("escapes around (not inside) a value are kept; output without a value keeps all its escapes byte-exact", () => {
    expect(mask([S], [`\x1b[31m${S}\x1b[0m\n`])).toBe("\x1b[31m***\x1b[0m\n");
    const colourful = `\x1b[1;32m✓\x1b[0m ok\r\n\x1b]8;;https://a.test\x07link\x1b]8;;\x07 \x1b[2K\rprogress 50%\n`;
    const bytes = Buffer.from(colourful);
    for (let i = 1; i < bytes.length; i++) expect(mask([S], [bytes.subarray(0, i), bytes.subarray(i)])).toBe(colourful);
  });

  it("a wrapped base64 of the value with colour codes in its lines is masked", () => {
    const wrapped = Buffer.from(`${S}${S}${S}${S}${S}`).toString("base64");
    const printed = `\x1b[33m${wrapped.slice(0, 40)}\x1b[0m\n\x1b[33m${wrapped.slice(40)}\x1b[0m\n`;
    const out = mask([S], [printed]);
    expect(out).toContain("***");
    for (const form of base64Forms(S)) expect(out.replace(/\x1b\[[0-9;]*m|\n/g, "")).not.toContain(form);
  });

  it("a huge escape between the halves does not grow what is held past its bound, and still cannot leak", () => {
    const m = new SecretMasker([S]);
    const out: Buffer[] = [m.push(Buffer.from(`x ${S.slice(0, 8)}\x1b]0;`))];
    let maxHeld = 0;
    let pushed = 0;
    let released = out[0].length;
    const filler = Buffer.alloc(64 * 1024, "a");
    for (let i = 0; i < 64; i++) {
      const o = m.push(filler);
      out.push(o);
      pushed += filler.length;
      released += o.length;
      maxHeld = Math.max(maxHeld, pushed - released);
    }
    out.push(m.push(Buffer.from(`\x07${S.slice(8)} y\n`)), m.end());
    const text = Buffer.concat(out).toString("latin1");
    expect(maxHeld).toBeLessThan(MAX_INVISIBLE_HOLD + 128 * 1024);
    // However the viewer reads the title, the joined value never shows.
    const shown = text.replace(/\x1b\][^\x07\x1b\n]*(\x07|\x1b\\)?/g, "");
    expect(shown).not.toContain(S);
    expect(shown.replace(/a{1000,}/g, "")).not.toContain(S);
  });
});
