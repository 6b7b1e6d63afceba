"use client";
// A check's log tail: the last lines of its output, colours rendered, as text. Opens at the first
// failure a test runner reported (a failed check), else scrolled to the end; while the check runs it
// keeps following new output unless the reader scrolled up.
import Link from "next/link";
import { useEffect, useMemo, useRef } from "react";
import { parseAnsiLines } from "@/lib/ansi/parse-ansi";
import { firstFailureLine } from "@/lib/gates/failure-line";
import { formatBytes } from "@/lib/runner/output/text";
import { AnsiLine } from "./ansi-line";

export function LogTail({
  text,
  totalBytes,
  note,
  fullLogHref,
  isLive = false,
  isFailed = false,
}: {
  text: string | null;
  totalBytes: number | null;
  note: string | null;
  fullLogHref: string | null;
  isLive?: boolean;
  // Look for the failure to open at (a passing check's tail opens at its end).
  isFailed?: boolean;
}) {
  // The run polls every second and every row renders its tail: parse only when the text changed.
  const lines = useMemo(() => parseAnsiLines(text ?? ""), [text]);
  const isPartial = (totalBytes ?? 0) > 16 * 1024;
  const box = useRef<HTMLPreElement>(null);
  const isAtEnd = useRef(true);
  const failureLine = useMemo(
    () => (isFailed && !isLive ? firstFailureLine(text ?? "") : null),
    [isFailed, isLive, text],
  );
  // New lines arrived: keep the end in view unless the reader scrolled up.
  useEffect(() => {
    const el = box.current;
    if (el && lines.length > 0 && isAtEnd.current && failureLine === null) el.scrollTop = el.scrollHeight;
  }, [lines, failureLine]);
  // The tail sits in a closed <details>: it has no size (and keeps no scroll position) until opened,
  // so it is positioned when it first gets a size.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let isPlaced = false;
    const observer = new ResizeObserver(() => {
      if (isPlaced || el.clientHeight === 0) return;
      isPlaced = true;
      const target = failureLine === null ? null : (el.children[failureLine - 1] as HTMLElement | undefined);
      if (target) {
        // One whole line of context above the failure.
        const above = target.previousElementSibling as HTMLElement | null;
        el.scrollTop = (above ?? target).offsetTop;
        isAtEnd.current = false;
      } else el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [failureLine]);
  return (
    <div className="overflow-hidden rounded-md border border-zinc-800 bg-zinc-950 text-zinc-200" data-testid="log-tail">
      <div
        className={
          "flex flex-wrap items-center justify-between gap-2 border-b border-zinc-800 px-3 " +
          "py-1.5 text-xs text-zinc-400"
        }
      >
        <span>
          {lines.length === 0
            ? "No output"
            : isPartial
              ? `Last 16 KB of ${formatBytes(totalBytes ?? 0)}`
              : `${lines.length} line${lines.length === 1 ? "" : "s"}`}
          {note ? <span className="ml-2 text-amber-400">· the stored log was cut</span> : null}
          {isLive ? <span className="ml-2 text-sky-400">· following</span> : null}
          {failureLine !== null ? (
            <span className="ml-2 text-zinc-300">· Opened at the first failure (line {failureLine})</span>
          ) : null}
        </span>
        {fullLogHref ? (
          // At the failure the tail opened at, when the tail is the whole log (its line is the log's line).
          <Link
            href={failureLine !== null && !isPartial ? `${fullLogHref}#L${failureLine}` : fullLogHref}
            className="inline-block py-1 font-medium text-sky-400 hover:text-sky-300"
          >
            Full log →
          </Link>
        ) : null}
      </div>
      {lines.length > 0 ? (
        <pre
          ref={box}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls, so the keyboard must reach it (WCAG 2.1.1)
          tabIndex={0}
          onScroll={(e) => {
            const el = e.currentTarget;
            isAtEnd.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
          }}
          className="relative max-h-96 overflow-auto px-3 py-2 font-mono text-xs leading-5 whitespace-pre"
        >
          {lines.map((segments, i) => (
            <div key={i}>
              <AnsiLine segments={segments} />
            </div>
          ))}
        </pre>
      ) : null}
    </div>
  );
}
