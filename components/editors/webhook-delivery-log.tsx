"use client";
// One webhook's recent deliveries (time, event, response, duration) with a Redeliver button each. Read from
// the API; it polls only while a delivery is still pending or being sent.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { formatDuration } from "@/lib/format";
import { fetchJson, queryKeys } from "@/lib/query-keys";
import { Button } from "../ui/button";

type Delivery = {
  id: string;
  event: string;
  runId: string | null;
  attempt: number;
  maxAttempts: number;
  state: "pending" | "sending" | "delivered" | "failed";
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  dueAt: string;
  sentAt: string | null;
  createdAt: string;
};

const at = (iso: string) => `${iso.replace("T", " ").slice(0, 19)} UTC`;
const isOpen = (d: Delivery) => d.state === "pending" || d.state === "sending";

function Outcome({ d }: { d: Delivery }) {
  if (d.state === "pending") return <span>retry due {at(d.dueAt)}</span>;
  if (d.state === "sending") return <span>sending…</span>;
  const tone = d.state === "delivered" ? "text-emerald-700 dark:text-emerald-400" : "text-rose-700 dark:text-rose-400";
  return (
    <span className={tone}>
      {d.statusCode !== null ? `HTTP ${d.statusCode}` : "no response"}
      {d.error && d.statusCode === null ? ` — ${d.error}` : ""}
    </span>
  );
}

export function WebhookDeliveryLog({ workId, webhookId, label }: { workId: string; webhookId: string; label: string }) {
  const base = `/api/works/${encodeURIComponent(workId)}/webhooks/${encodeURIComponent(webhookId)}/deliveries`;
  const key = queryKeys.webhookDeliveries(workId, webhookId);
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const log = useQuery({
    queryKey: key,
    queryFn: () => fetchJson<{ deliveries: Delivery[] }>(`${base}?limit=20`),
    refetchInterval: (q) => (q.state.data?.deliveries.some(isOpen) ? 2000 : false),
  });

  const redeliver = async (id: string) => {
    setBusy(id);
    setProblem(null);
    const response = await fetch(`${base}/${encodeURIComponent(id)}/redeliver`, { method: "POST" });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      setProblem(body?.error?.message ?? `the server answered ${response.status}`);
    }
    await queryClient.invalidateQueries({ queryKey: key, exact: true });
    setBusy(null);
  };

  const rows = log.data?.deliveries ?? [];
  return (
    <section aria-label={`${label} deliveries`} className="border-t border-zinc-200 pt-3 dark:border-zinc-800">
      <div className="mb-2 flex items-center justify-between gap-2">
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
      {log.isPending ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading deliveries…</p>
      ) : log.isError ? (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          The deliveries could not be read: {log.error.message}
        </p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          No deliveries yet: they appear as runs start and end.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-zinc-500 dark:text-zinc-400">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Time
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Event
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Response
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Duration
                </th>
                <th scope="col" className="py-1 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {rows.map((d) => (
                <tr key={d.id}>
                  <td className="py-1.5 pr-3 whitespace-nowrap">{at(d.sentAt ?? d.createdAt)}</td>
                  <td className="py-1.5 pr-3">
                    <code className="font-mono">{d.event}</code>
                    {d.attempt > 1 ? ` (try ${d.attempt} of ${d.maxAttempts})` : ""}
                    {d.runId ? (
                      <>
                        {" "}
                        <Link href={`/runs/${d.runId}`} className="underline underline-offset-2">
                          run
                        </Link>
                      </>
                    ) : null}
                  </td>
                  <td className="py-1.5 pr-3">
                    <Outcome d={d} />
                  </td>
                  <td className="py-1.5 pr-3 whitespace-nowrap">{formatDuration(d.durationMs)}</td>
                  <td className="py-1.5 text-right">
                    <Button
                      size="sm"
                      disabled={isOpen(d) || busy !== null}
                      aria-label={`Redeliver ${d.event} of ${at(d.sentAt ?? d.createdAt)}`}
                      onClick={() => void redeliver(d.id)}
                    >
                      {busy === d.id ? "Sending…" : "Redeliver"}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
