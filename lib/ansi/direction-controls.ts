// Text-direction controls (bidi embeddings, overrides and isolates) in what a check printed: shown as what
// they are, never applied — applied, "GATE\u202Egnp.exe" reads "GATEexe.png" and a log line can show another
// order than it holds. Pure: the text cut into pieces, each control a piece of its own with its code point.
import { DIRECTION_CONTROLS } from "../gates/visible-text";

const CONTROLS = new RegExp(DIRECTION_CONTROLS, "gu");
const ANY_CONTROL = new RegExp(DIRECTION_CONTROLS, "u");

export type TextPiece = { text: string; control: string | null };

export function directionPieces(text: string): TextPiece[] {
  if (!ANY_CONTROL.test(text)) return [{ text, control: null }];
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const found of text.matchAll(CONTROLS)) {
    if (found.index > at) pieces.push({ text: text.slice(at, found.index), control: null });
    const code = found[0].codePointAt(0)!.toString(16).toUpperCase();
    pieces.push({ text: found[0], control: `U+${code}` });
    at = found.index + found[0].length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), control: null });
  return pieces;
}
