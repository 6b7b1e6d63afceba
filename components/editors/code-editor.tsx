"use client";
// A command field with bash highlighting: a transparent textarea over the highlighted text (shiki
// escapes the text it highlights; this is the person's own command, never a check's output).
import { useMemo } from "react";
import { useBashHighlighter } from "./use-bash-highlighter";

type Props = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  describedBy?: string;
  label: string;
};

// The textarea and the highlighting behind it share one box, so every character sits over its colour.
const BOX = "m-0 w-full overflow-hidden px-3 py-2 font-mono text-xs leading-5 whitespace-pre-wrap break-all";
const SHIKI_PRE = "[&_pre]:m-0 [&_pre]:!bg-transparent [&_pre]:whitespace-pre-wrap [&_pre]:break-all";
const FRAME = "code-editor relative rounded-md border bg-white shadow-sm dark:bg-zinc-950";
const FOCUS_RING = "focus-within:border-sky-500 focus-within:ring-1 focus-within:ring-sky-500";
// Over the highlighting only the caret shows; without it (still loading) the text itself does.
const TEXT_OVER_COLOURS = "text-transparent caret-zinc-900 dark:caret-zinc-100";
const TEXT_PLAIN = "text-zinc-900 dark:text-zinc-100";

export function CodeEditor({ id, value, onChange, invalid, describedBy, label }: Props) {
  const highlighter = useBashHighlighter();
  const html = useMemo(() => {
    if (!highlighter) return null;
    const out = highlighter.codeToHtml(value.endsWith("\n") || value === "" ? `${value} ` : value, {
      lang: "bash",
      themes: { light: "github-light", dark: "github-dark" },
      defaultColor: false,
      // The highlighted copy is aria-hidden decoration under the textarea: it must not take focus.
      transformers: [
        {
          pre(node) {
            delete node.properties.tabindex;
          },
        },
      ],
    });
    return out;
  }, [highlighter, value]);
  const lines = Math.max(2, value.split("\n").length);
  return (
    <div className={`${FRAME} ${FOCUS_RING} ${invalid ? "border-rose-500" : "border-zinc-300 dark:border-zinc-700"}`}>
      {html ? (
        <div
          aria-hidden
          className={`pointer-events-none absolute inset-0 ${BOX} ${SHIKI_PRE}`}
          // The HTML is shiki's rendering of the person's own command, every character of which shiki
          // escapes; a check's output never comes here.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: shiki escapes the text it highlights (above)
          dangerouslySetInnerHTML={{ __html: html }}
        />
      ) : null}
      <textarea
        id={id}
        aria-label={label}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        value={value}
        rows={lines}
        onChange={(e) => onChange(e.target.value)}
        className={`relative block resize-y bg-transparent outline-none ${BOX} ${
          html ? TEXT_OVER_COLOURS : TEXT_PLAIN
        }`}
      />
    </div>
  );
}
