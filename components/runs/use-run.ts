"use client";
// A run kept live: polled every second while the runner works on it, not at all once it has ended.
// When its status changes, the server-rendered parts of the page (ending, actions) are refreshed too.
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { fetchJson, queryKeys } from "@/lib/query-keys";
import { isRunLive, type RunJson } from "@/lib/api/run-json";

// Several parts of a run page follow the same run: the first to see a new status refreshes the page, once.
const refreshedAt = new Map<string, string>();

export function useRun(initial: RunJson) {
  const router = useRouter();
  const query = useQuery({
    queryKey: queryKeys.run(initial.id),
    queryFn: () => fetchJson<RunJson>(`/api/runs/${initial.id}`),
    initialData: initial,
    refetchInterval: (q) => (q.state.data && isRunLive(q.state.data) ? 1000 : false),
  });
  const status = query.data.status;
  const seen = useRef(status);
  useEffect(() => {
    if (seen.current === status) return;
    seen.current = status;
    if (refreshedAt.get(initial.id) === status) return;
    refreshedAt.set(initial.id, status);
    router.refresh();
  }, [status, router, initial.id]);
  return query;
}
