// One line of terminal output with its colours. Text only: output is never turned into HTML.
import type { CSSProperties } from "react";
import type { AnsiSegment, AnsiStyle } from "@/lib/ansi/parse-ansi";

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

export function AnsiLine({ segments }: { segments: AnsiSegment[] }) {
  if (segments.length === 0) return <>{"\u200b"}</>;
  return (
    <>
      {segments.map((seg, i) =>
        Object.keys(seg.style).length === 0 ? (
          <span key={i}>{seg.text}</span>
        ) : (
          <span key={i} className={classFor(seg.style)} style={inlineFor(seg.style)}>
            {seg.text}
          </span>
        ),
      )}
    </>
  );
}
