"use client";
// One webhook's deliveries, newest first, each with its tries and a Redeliver button, a page at a time ("Show
// older deliveries"). Read from the API; it polls only while a try is still waiting or being sent.
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { plural } from "@/lib/format";
import { fetchJson, queryKeys } from "@/lib/query-keys";
import { Button } from "../ui/button";
import { type Delivery, DeliveryItem, isOpen } from "./webhook-delivery-item";

type LogPage = { deliveries: Delivery[]; nextBefore: string | null };
const PAGE_SIZE = 20;

// The API lists each delivery's tries together, newest first: one entry per delivery, in the API's order.
function byDelivery(rows: Delivery[]): Delivery[][] {
  const groups = new Map<string, Delivery[]>();
  for (const d of rows) groups.set(d.deliveryId, [...(groups.get(d.deliveryId) ?? []), d]);
  return [...groups.values()];
}

function useRedeliver(base: string, key: readonly unknown[]) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const redeliver = async (id: string) => {
    setBusy(id);
    setProblem(null);
    setSent(null);
    const response = await fetch(`${base}/${encodeURIComponent(id)}/redeliver`, { method: "POST" });
    const body = (await response.json().catch(() => null)) as (Delivery & { error?: { message?: string } }) | null;
    if (!response.ok) setProblem(body?.error?.message ?? `the server answered ${response.status}`);
    else if (body) {
      const answer = body.statusCode !== null ? `HTTP ${body.statusCode}` : "no response";
      setSent(`Sent again as a new delivery: ${body.state}, ${answer}${body.reason ? ` — ${body.reason}` : ""}.`);
    }
    await queryClient.invalidateQueries({ queryKey: key, exact: true });
    setBusy(null);
  };
  return { busy, problem, sent, redeliver };
}

export function WebhookDeliveryLog({ workId, webhookId, label }: { workId: string; webhookId: string; label: string }) {
  const base = `/api/works/${encodeURIComponent(workId)}/webhooks/${encodeURIComponent(webhookId)}/deliveries`;
  const key = queryKeys.webhookDeliveries(workId, webhookId);
  const log = useInfiniteQuery({
    queryKey: key,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      fetchJson<LogPage>(`${base}?limit=${PAGE_SIZE}${pageParam ? `&before=${encodeURIComponent(pageParam)}` : ""}`),
    getNextPageParam: (page) => page.nextBefore,
    refetchInterval: (q) => (q.state.data?.pages.some((p) => p.deliveries.some(isOpen)) ? 2000 : false),
  });
  const { busy, problem, sent, redeliver } = useRedeliver(base, key);

  const deliveries = byDelivery(log.data?.pages.flatMap((p) => p.deliveries) ?? []);
  return (
    <section aria-label={`${label} deliveries`} className="border-t border-zinc-200 pt-3 dark:border-zinc-800">
      <div className="mb-1 flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">Recent deliveries</h3>
        <Button size="sm" variant="ghost" onClick={() => void log.refetch()}>
          Refresh
        </Button>
      </div>
      {problem ? (
        <p role="alert" className="mb-2 text-sm text-rose-700 dark:text-rose-300">
          {problem}
        </p>
      ) : null}
      <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
        {sent}
      </p>
      {log.isPending ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading deliveries…</p>
      ) : log.isError && !log.isFetchNextPageError ? (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          The deliveries could not be read: {log.error.message}
        </p>
      ) : deliveries.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          No deliveries yet: they appear as runs start and end.
        </p>
      ) : (
        <>
          <ol
            aria-label={`${label} deliveries, newest first`}
            className="divide-y divide-zinc-100 dark:divide-zinc-800"
          >
            {deliveries.map((tries) => (
              <DeliveryItem
                key={tries[0].deliveryId}
                tries={tries}
                isBusy={busy !== null}
                isSending={busy === tries[0].id}
                onRedeliver={(id) => void redeliver(id)}
              />
            ))}
          </ol>
          <div
            className={
              "flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-zinc-100 pt-2 text-xs text-zinc-600 " +
              "dark:border-zinc-800 dark:text-zinc-400"
            }
          >
            <span>
              {plural(deliveries.length, "delivery", "deliveries")}
              {log.hasNextPage ? " shown" : ": the log keeps 30 days"}
            </span>
            {log.hasNextPage ? (
              <Button size="sm" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
                {log.isFetchingNextPage ? "Loading older deliveries…" : "Show older deliveries"}
              </Button>
            ) : null}
            {log.isFetchNextPageError ? (
              <span role="alert" className="text-rose-700 dark:text-rose-300">
                Older deliveries could not be read: {log.error?.message}
              </span>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}
