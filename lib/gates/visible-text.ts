// Names people read (Works, tasks, tokens, people): they must show something, and must not reorder what is
// shown around them. Pure.

import type { z } from "zod";

// Shows nothing: format characters (zero-width spaces and joiners, the byte-order mark, bidi marks), control
// characters, every kind of space, the blank letters some scripts have (Hangul fillers, the braille blank),
// and marks, which show nothing with no letter before them (variation selectors, the grapheme joiner).
const BLANKS = "\\u115F\\u1160\\u3164\\uFFA0\\u2800";
const INVISIBLE = new RegExp(`[\\p{Cf}\\p{Cc}\\p{Z}\\s\\p{M}${BLANKS}]`, "gu");
// What a name's key drops: what shows nothing inside a name — not the zero-width joiners that shape Persian
// or Devanagari words, nor combining marks, which change the letter before them.
const DROPPED = new RegExp(
  `[\\u200B\\u2060\\uFEFF\\u00AD\\u034F\\u17B4\\u17B5\\uFE00-\\uFE0F\\u{E0100}-\\u{E01EF}${BLANKS}]`,
  "gu",
);
// Bidi embeddings, overrides and isolates: "GATE\u202Eexe.png" shows as "GATEgnp.exe".
export const DIRECTION_CONTROLS = "[\u202A-\u202E\u2066-\u2069]";
const BIDI_CONTROLS = new RegExp(DIRECTION_CONTROLS, "u");

export function visibleTextProblem(text: string): string | null {
  if (BIDI_CONTROLS.test(text))
    return "must not contain text-direction controls (U+202A–202E, U+2066–2069): they reorder what is shown";
  if (text.replace(INVISIBLE, "").length === 0) return "must contain a visible character";
  return null;
}

// The same name to a reader: compatibility forms folded (fullwidth "Ｗｅｂ" is "Web"), characters that show
// nothing dropped, spaces collapsed, case ignored.
export function readableKey(text: string): string {
  return text.normalize("NFKC").replace(DROPPED, "").trim().replace(/\s+/g, " ").toLowerCase();
}

// The rule as a schema refinement (`.superRefine(refineVisible)`), its message on the field.
export function refineVisible(text: string, ctx: z.RefinementCtx): void {
  const problem = visibleTextProblem(text);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
}
