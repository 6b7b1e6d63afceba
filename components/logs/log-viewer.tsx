"use client";
// A full log of any length: only the lines in view are in the page (fixed-height rows, fetched in
// chunks), opened at the end or at #L<line>, with line links, search, ANSI colours, and live follow
// while the check runs. Output is rendered as text, never as HTML.
import { memo, useCallback, useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from "react";
import { parseAnsi } from "@/lib/ansi/parse-ansi";
import type { LogLinesPage } from "@/lib/services/logs";
import { AnsiLine } from "./ansi-line";
import { LogSearch } from "./log-search";
import { useLogChunks, useLogMeta, useLogSearch, useStyledLines, type LogLine } from "./use-log-data";

const LH = 20;
const MAX_PX = 15_000_000;
const OVERSCAN = 40;
// Lines in the block painted before hydration: more than a screen's height of the log box holds, and no
// more, so the page's HTML (and the browser's parse of it before first paint) does not carry all the
// initial lines twice: as rows here and as the viewer's data.
const PREPAINT_LINES = 80;

export function LogViewer({
  base,
  initial,
  actions,
}: {
  base: string;
  initial: LogLinesPage;
  actions?: React.ReactNode;
}) {
  const { data: meta } = useLogMeta(base, initial);
  const total = meta.totalLines;
  const scroller = useRef<HTMLElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });
  const [selected, setSelected] = useState<number | null>(null);
  const [query, setQuery] = useState("");
  // Before hydration (and so in the server's HTML) the last lines are shown as a plain block anchored at
  // the bottom: the end of the log is on screen at first paint, before any script runs.
  const [isHydrated, setHydrated] = useState(false);
  const [matchAt, setMatchAt] = useState(0);
  const isFollowing = useRef(true);
  const search = useLogSearch(base, query);

  const contentPx = total * LH;
  const heightPx = Math.min(contentPx, MAX_PX);
  const visibleLines = Math.ceil(view.height / LH);
  // Above MAX_PX the scroll position maps proportionally onto the lines.
  const firstExact =
    contentPx <= MAX_PX
      ? view.top / LH
      : heightPx > view.height
        ? (view.top / (heightPx - view.height)) * Math.max(0, total - visibleLines)
        : 0;
  const first = Math.max(1, Math.floor(firstExact) + 1 - OVERSCAN);
  const last = Math.min(total, Math.floor(firstExact) + visibleLines + OVERSCAN);
  const offsetPx = view.top - (firstExact - (first - 1)) * LH;
  const fetched = useLogChunks(base, first, last, total, meta.isLive);
  const initialStyled = useStyledLines(initial);
  const initialLines = useRef(new Map(initialStyled.map((l) => [l.n, l])));

  const scrollToLine = useCallback(
    (n: number) => {
      const el = scroller.current;
      if (!el) return;
      const target =
        contentPx <= MAX_PX
          ? (n - 1) * LH - el.clientHeight / 2 + LH
          : ((n - 1) / Math.max(1, total - visibleLines)) * (heightPx - el.clientHeight);
      el.scrollTop = Math.max(0, target);
      setView({ top: el.scrollTop, height: el.clientHeight });
    },
    [contentPx, heightPx, total, visibleLines],
  );

  useEffect(() => setHydrated(true), []);

  // Open at #L<line> when the address says so, otherwise at the end (where failures are); once.
  const hasOpened = useRef(false);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !isHydrated || hasOpened.current) return;
    hasOpened.current = true;
    const wanted = /^#L(\d+)$/.exec(window.location.hash);
    if (wanted) {
      const n = Math.min(Number(wanted[1]), initial.totalLines || 1);
      setSelected(n);
      isFollowing.current = false;
      requestAnimationFrame(() => scrollToLine(n));
    } else {
      el.scrollTop = el.scrollHeight;
      setView({ top: el.scrollTop, height: el.clientHeight });
    }
  }, [isHydrated, initial.totalLines, scrollToLine]);

  // Live: keep following the end while the reader is at the end. (Past MAX_PX the height stops
  // growing, but the bottom of the scroller then maps onto the last lines whatever their number.)
  useEffect(() => {
    const el = scroller.current;
    if (el && meta.isLive && isFollowing.current) {
      el.scrollTop = heightPx;
      setView({ top: el.scrollTop, height: el.clientHeight });
    }
  }, [heightPx, meta.isLive]);

  // A new search result jumps to its first match, once: not again when the log grows or the view resizes.
  const showFirstMatch = useEffectEvent((n: number) => {
    setMatchAt(0);
    setSelected(n);
    scrollToLine(n);
  });
  useEffect(() => {
    const firstMatch = search.data?.lines[0];
    if (firstMatch !== undefined) showFirstMatch(firstMatch);
  }, [search.data]);

  const matches = search.data?.lines ?? [];

  const step = (delta: 1 | -1) => {
    if (matches.length === 0) return;
    const next = (matchAt + delta + matches.length) % matches.length;
    setMatchAt(next);
    setSelected(matches[next]);
    isFollowing.current = false;
    scrollToLine(matches[next]);
  };

  // Stable, so scrolling re-renders (and re-parses) only the rows whose props changed.
  const selectLine = useCallback((n: number) => {
    setSelected(n);
    isFollowing.current = false;
    window.history.replaceState(null, "", `#L${n}`);
  }, []);

  const rows: React.ReactNode[] = [];
  // Marks follow the search whose results are shown, so they never disagree with the counter.
  const needle = search.data ? query.toLowerCase() : "";
  for (let n = first; n <= last; n++) {
    const line: LogLine | undefined = fetched.get(n) ?? initialLines.current.get(n);
    rows.push(<LogRow key={n} n={n} line={line} isSelected={n === selected} mark={needle} onSelect={selectLine} />);
  }

  return (
    <div className="overflow-hidden rounded-lg border border-zinc-800 bg-zinc-950 text-zinc-200 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-800 px-3 py-2">
        <LogSearch
          total={query ? (search.data?.total ?? null) : null}
          current={matchAt}
          isSearching={search.isFetching}
          onSearch={(q) => setQuery(q)}
          onStep={step}
        />
        <div className="flex items-center gap-3 text-xs text-zinc-400">
          <span data-testid="line-count">
            {total === 0 && !meta.isLive ? "No output" : `${total.toLocaleString("en")} line${total === 1 ? "" : "s"}`}
          </span>
          {meta.isLive ? (
            <span className="inline-flex items-center gap-1 text-sky-400">
              <span className="size-2 animate-pulse rounded-full bg-sky-400" /> live
            </span>
          ) : null}
          {actions}
        </div>
      </div>
      {total === 0 && !meta.isLive ? (
        // A finished command that printed nothing: said once, not as a screen-high empty box.
        <p className="px-3 py-6 text-sm text-zinc-400">The command printed nothing.</p>
      ) : !isHydrated ? (
        <div
          className="flex h-[calc(100dvh-15rem)] min-h-80 flex-col-reverse overflow-auto font-mono text-xs leading-5"
          role="log"
          aria-label="Log lines"
        >
          <div>
            {initialStyled.slice(-PREPAINT_LINES).map((line) => (
              <LogRow key={line.n} n={line.n} line={line} isSelected={false} mark="" onSelect={ignoreSelect} />
            ))}
          </div>
        </div>
      ) : (
        <section
          ref={scroller}
          data-testid="log-scroller"
          // A scrollable region must be reachable by keyboard to be scrolled (WCAG 2.1.1).
          // biome-ignore lint/a11y/noNoninteractiveTabindex: axe's scrollable-region-focusable (above)
          tabIndex={0}
          aria-label="Log lines"
          onScroll={(e) => {
            const el = e.currentTarget;
            isFollowing.current = el.scrollTop + el.clientHeight >= el.scrollHeight - LH;
            setView({ top: el.scrollTop, height: el.clientHeight });
          }}
          className="relative h-[calc(100dvh-15rem)] min-h-80 overflow-auto font-mono text-xs leading-5"
        >
          <div style={{ height: heightPx }} />
          <div className="absolute left-0 min-w-full" style={{ top: offsetPx }} role="log">
            {rows}
          </div>
        </section>
      )}
    </div>
  );
}

const ignoreSelect = () => undefined;

const LogRow = memo(function LogRow({
  n,
  line,
  isSelected,
  mark,
  onSelect,
}: {
  n: number;
  line: LogLine | undefined;
  isSelected: boolean;
  // The search term (lower case): its occurrences are marked, not the whole line.
  mark: string;
  onSelect: (n: number) => void;
}) {
  return (
    <div
      id={`L${n}`}
      data-line={n}
      data-selected={isSelected || undefined}
      className={`flex h-5 whitespace-pre ${isSelected ? "bg-amber-400/20" : "hover:bg-white/5"}`}
    >
      <a
        href={`#L${n}`}
        onClick={(e) => {
          e.preventDefault();
          onSelect(n);
        }}
        className={
          "sticky left-0 w-16 shrink-0 bg-zinc-950 pr-3 text-right text-zinc-400 select-none hover:text-zinc-200"
        }
      >
        {n}
      </a>
      <span className="pr-4">
        {line ? (
          <AnsiLine segments={parseAnsi(line.text, line.style).segments} mark={mark} />
        ) : (
          <span className="text-zinc-700">…</span>
        )}
        {line && line.cut > 0 ? (
          <span className="ml-2 text-amber-400">… line cut: {line.cut.toLocaleString("en")} more bytes (see raw)</span>
        ) : null}
      </span>
    </div>
  );
});
