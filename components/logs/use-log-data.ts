"use client";
// Data for the full-log viewer: line chunks fetched as they scroll into view, the line count polled
// while the check runs (and not after), and search results.
import { useMemo, useRef } from "react";
import { useQueries, useQuery } from "@tanstack/react-query";
import { NO_STYLE, stylesAtLineStarts, type AnsiStyle } from "@/lib/ansi/parse-ansi";
import { fetchJson, logKeys } from "@/lib/query-keys";
import type { LogLinesPage } from "@/lib/services/logs";

const CHUNK = 500;
// A line with the colour in effect where it starts (a colour opened on an earlier line carries on).
export type LogLine = LogLinesPage["lines"][number] & { style: AnsiStyle };

type Styled = { from: AnsiStyle; lines: LogLine[]; end: AnsiStyle };

function styleLines(page: LogLinesPage, from: AnsiStyle): Styled {
  const { starts, end } = stylesAtLineStarts(
    page.lines.map((l) => l.text),
    from,
  );
  return { from, lines: page.lines.map((line, i) => ({ ...line, style: starts[i] })), end };
}

// The initial (last) lines, styled among themselves.
export function useStyledLines(page: LogLinesPage): LogLine[] {
  return useMemo(() => styleLines(page, NO_STYLE).lines, [page]);
}

export function useLogMeta(base: string, initial: LogLinesPage) {
  return useQuery({
    queryKey: logKeys.meta(base),
    queryFn: () => fetchJson<LogLinesPage>(`${base}/lines?count=1`),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.isLive ? 1000 : false),
  });
}

// The lines of every chunk overlapping [first, last]; the chunk still growing is refetched as it grows.
// Colours carry from a chunk into the next one (the chunk before the first in view is loaded for that;
// a colour left open for longer than a chunk before it is not seen). Styled lines are kept per chunk,
// so unchanged rows keep their identity.
export function useLogChunks(
  base: string,
  first: number,
  last: number,
  total: number,
  isLive: boolean,
): Map<number, LogLine> {
  const styled = useRef(new WeakMap<LogLinesPage, Styled>());
  const chunks: number[] = [];
  // One chunk before the first in view too: the colour a line starts in may have been opened there.
  for (
    let c = Math.max(0, Math.floor((Math.max(1, first) - 1) / CHUNK) - 1);
    c <= Math.floor((Math.max(1, last) - 1) / CHUNK);
    c++
  )
    chunks.push(c);
  const lastChunk = Math.floor((Math.max(1, total) - 1) / CHUNK);
  const results = useQueries({
    queries: chunks.map((c) => ({
      queryKey: logKeys.chunk(base, c, isLive && c === lastChunk ? total : "final"),
      queryFn: () => fetchJson<LogLinesPage>(`${base}/lines?from=${c * CHUNK + 1}&count=${CHUNK}`),
      staleTime: Infinity,
      placeholderData: (previous: LogLinesPage | undefined) => previous,
    })),
  });
  const lines = new Map<number, LogLine>();
  let carry: AnsiStyle | null = null;
  results.forEach((r, i) => {
    const page = r.data;
    if (!page) {
      carry = null;
      return;
    }
    const from: AnsiStyle = carry ?? NO_STYLE;
    let entry = styled.current.get(page);
    if (!entry || entry.from !== from) {
      entry = styleLines(page, from);
      styled.current.set(page, entry);
    }
    for (const line of entry.lines) lines.set(line.n, line);
    // Only a chunk that is whole and directly followed carries its colour on.
    carry = page.lines.length === CHUNK && chunks[i + 1] === chunks[i] + 1 ? entry.end : null;
  });
  return lines;
}

export function useLogSearch(base: string, query: string) {
  return useQuery({
    queryKey: logKeys.search(base, query),
    queryFn: () => fetchJson<{ lines: number[]; total: number }>(`${base}/search?q=${encodeURIComponent(query)}`),
    enabled: query.length > 0,
    staleTime: 5000,
  });
}
