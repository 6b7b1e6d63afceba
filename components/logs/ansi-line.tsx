// One line of terminal output with its colours. Text only: output is never turned into HTML.
import type { CSSProperties } from "react";
import type { AnsiSegment, AnsiStyle } from "@/lib/ansi/parse-ansi";
import { ShownText } from "./shown-text";

function classFor(style: AnsiStyle): string {
  const classes: string[] = [];
  if (style.fg && !style.fg.startsWith("rgb")) classes.push(`ansi-${style.fg}`);
  if (style.bg && !style.bg.startsWith("rgb")) classes.push(`ansi-bg-${style.bg}`);
  if (style.bold) classes.push("font-bold");
  if (style.dim) classes.push("opacity-60");
  if (style.italic) classes.push("italic");
  if (style.underline) classes.push("underline");
  if (style.strike) classes.push("line-through");
  return classes.join(" ");
}

function inlineFor(style: AnsiStyle): CSSProperties | undefined {
  const css: CSSProperties = {};
  if (style.fg?.startsWith("rgb")) css.color = style.fg;
  if (style.bg?.startsWith("rgb")) css.backgroundColor = style.bg;
  if (style.inverse) css.filter = "invert(1)";
  return Object.keys(css).length ? css : undefined;
}

function styledSpan(text: string, style: AnsiStyle, key: string | number) {
  return Object.keys(style).length === 0 ? (
    <span key={key}>
      <ShownText text={text} />
    </span>
  ) : (
    <span key={key} className={classFor(style)} style={inlineFor(style)}>
      <ShownText text={text} />
    </span>
  );
}

// Where a search term occurs in the line's text (case-insensitive, as the server's search), as [start, end).
function matchRanges(text: string, needle: string): [number, number][] {
  const ranges: [number, number][] = [];
  const hay = text.toLowerCase();
  for (let at = hay.indexOf(needle); needle && at !== -1; at = hay.indexOf(needle, at + needle.length))
    ranges.push([at, at + needle.length]);
  return ranges;
}

// `mark` (lower case) wraps each occurrence of a search term in <mark>, across colour changes.
export function AnsiLine({ segments, mark = "" }: { segments: AnsiSegment[]; mark?: string }) {
  if (segments.length === 0) return <>{"\u200b"}</>;
  const ranges = mark ? matchRanges(segments.map((s) => s.text).join(""), mark) : [];
  if (ranges.length === 0) return <>{segments.map((seg, i) => styledSpan(seg.text, seg.style, i))}</>;
  const out: React.ReactNode[] = [];
  let offset = 0;
  segments.forEach((seg, i) => {
    const end = offset + seg.text.length;
    // Cut the segment at every range boundary inside it; the pieces inside a range are marked.
    const cuts = new Set([offset, end]);
    for (const [a, b] of ranges) {
      if (a > offset && a < end) cuts.add(a);
      if (b > offset && b < end) cuts.add(b);
    }
    const points = [...cuts].sort((x, y) => x - y);
    for (let k = 0; k + 1 < points.length; k++) {
      const piece = seg.text.slice(points[k] - offset, points[k + 1] - offset);
      const isMarked = ranges.some(([a, b]) => points[k] >= a && points[k + 1] <= b);
      out.push(
        isMarked ? (
          <mark key={`${i}-${k}`} className="rounded-sm bg-amber-300 text-zinc-950">
            <ShownText text={piece} />
          </mark>
        ) : (
          styledSpan(piece, seg.style, `${i}-${k}`)
        ),
      );
    }
    offset = end;
  });
  return <>{out}</>;
}
