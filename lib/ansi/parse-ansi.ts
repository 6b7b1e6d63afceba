// Splits terminal output into styled text segments (SGR colours and weights). Everything else an escape
// sequence can do (cursor moves, titles, hyperlinks) is dropped. The result is plain data: rendering it
// as React text nodes means nothing a check prints can become HTML.
export type AnsiStyle = {
  fg?: string;
  bg?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  strike?: boolean;
};

export type AnsiSegment = { text: string; style: AnsiStyle };

// The 16 standard colours as names the renderer maps to theme-aware classes.
const BASIC = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];

function color256(n: number): string {
  if (n < 8) return BASIC[n];
  if (n < 16) return `bright-${BASIC[n - 8]}`;
  if (n < 232) {
    const i = n - 16;
    const steps = [0, 95, 135, 175, 215, 255];
    return `rgb(${steps[Math.floor(i / 36)]},${steps[Math.floor(i / 6) % 6]},${steps[i % 6]})`;
  }
  const v = 8 + (n - 232) * 10;
  return `rgb(${v},${v},${v})`;
}

function applySgr(style: AnsiStyle, params: number[]): AnsiStyle {
  let s = { ...style };
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (p === 0) s = {};
    else if (p === 1) s.bold = true;
    else if (p === 2) s.dim = true;
    else if (p === 3) s.italic = true;
    else if (p === 4) s.underline = true;
    else if (p === 7) s.inverse = true;
    else if (p === 9) s.strike = true;
    else if (p === 22) s.bold = s.dim = false;
    else if (p === 23) s.italic = false;
    else if (p === 24) s.underline = false;
    else if (p === 27) s.inverse = false;
    else if (p === 29) s.strike = false;
    else if (p >= 30 && p <= 37) s.fg = BASIC[p - 30];
    else if (p === 39) delete s.fg;
    else if (p >= 40 && p <= 47) s.bg = BASIC[p - 40];
    else if (p === 49) delete s.bg;
    else if (p >= 90 && p <= 97) s.fg = `bright-${BASIC[p - 90]}`;
    else if (p >= 100 && p <= 107) s.bg = `bright-${BASIC[p - 100]}`;
    else if (p === 38 || p === 48) {
      const key = p === 38 ? "fg" : "bg";
      if (params[i + 1] === 5 && params[i + 2] !== undefined) {
        s[key] = color256(params[i + 2]);
        i += 2;
      } else if (params[i + 1] === 2 && params[i + 4] !== undefined) {
        s[key] = `rgb(${params[i + 2] & 255},${params[i + 3] & 255},${params[i + 4] & 255})`;
        i += 4;
      }
    }
  }
  return s;
}

// CSI … final byte, OSC … BEL/ST, and lone two-byte escapes.
const ESCAPE = /\u001b\[([0-9;:?]*)([ -/]*)([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]?/g;

export function parseAnsi(text: string, initial: AnsiStyle = {}): { segments: AnsiSegment[]; style: AnsiStyle } {
  const segments: AnsiSegment[] = [];
  let style = initial;
  let last = 0;
  for (const match of text.matchAll(ESCAPE)) {
    const at = match.index ?? 0;
    if (at > last) segments.push({ text: text.slice(last, at), style });
    last = at + match[0].length;
    if (match[3] === "m" && !match[2]) {
      const params = (match[1] || "0").split(/[;:]/).map((v) => (v === "" ? 0 : Number(v)));
      style = applySgr(style, params);
    }
  }
  if (last < text.length) segments.push({ text: text.slice(last), style });
  return { segments: mergeAdjacent(segments), style };
}

function mergeAdjacent(segments: AnsiSegment[]): AnsiSegment[] {
  const out: AnsiSegment[] = [];
  for (const seg of segments) {
    const prev = out[out.length - 1];
    if (prev && prev.style === seg.style) prev.text += seg.text;
    else out.push({ ...seg });
  }
  return out;
}

// Lines with the style carried across line breaks (a colour opened on one line continues on the next).
export function parseAnsiLines(text: string): AnsiSegment[][] {
  // No output is no line (not one empty line).
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  let style: AnsiStyle = {};
  return lines.map((raw) => {
    let line = raw.replace(/\r$/, "");
    // A carriage return redraws the line (progress bars): show what was drawn last.
    const cr = line.lastIndexOf("\r");
    if (cr !== -1) {
      style = parseAnsi(line.slice(0, cr), style).style;
      line = line.slice(cr + 1);
    }
    const parsed = parseAnsi(line, style);
    style = parsed.style;
    return parsed.segments;
  });
}

export const NO_STYLE: AnsiStyle = Object.freeze({}) as AnsiStyle;

// The style in effect where each line starts (a colour opened on one line carries into the next), and
// the style after the last line, to carry into the lines that follow.
export function stylesAtLineStarts(
  lines: readonly string[],
  initial: AnsiStyle = NO_STYLE,
): { starts: AnsiStyle[]; end: AnsiStyle } {
  const starts: AnsiStyle[] = [];
  let style = initial;
  for (const line of lines) {
    starts.push(style);
    // Only a line with an escape sequence can change it.
    if (line.includes("\u001b")) style = parseAnsi(line, style).style;
  }
  return { starts, end: style };
}
