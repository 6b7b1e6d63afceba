"use client";
// Data for the full-log viewer: line chunks fetched as they scroll into view, the line count polled
// while the check runs (and not after), and search results.
import { useQueries, useQuery } from "@tanstack/react-query";
import { fetchJson, logKeys } from "@/lib/query-keys";
import type { LogLinesPage } from "@/lib/services/logs";

export const CHUNK = 500;
export type LogLine = LogLinesPage["lines"][number];

export function useLogMeta(base: string, initial: LogLinesPage) {
  return useQuery({
    queryKey: logKeys.meta(base),
    queryFn: () => fetchJson<LogLinesPage>(`${base}/lines?count=1`),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.isLive ? 1000 : false),
  });
}

// The lines of every chunk overlapping [first, last]; the chunk still growing is refetched as it grows.
export function useLogChunks(base: string, first: number, last: number, total: number, isLive: boolean): Map<number, LogLine> {
  const chunks: number[] = [];
  for (let c = Math.floor((Math.max(1, first) - 1) / CHUNK); c <= Math.floor((Math.max(1, last) - 1) / CHUNK); c++) chunks.push(c);
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
  for (const r of results) for (const line of r.data?.lines ?? []) lines.set(line.n, line);
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
