// One webhook delivery (an event sent to the receiver) with every try of it, newest first: when each was sent,
// what came back and why it did not count. Everything shown is text: nothing a receiver answered becomes HTML.
import Link from "next/link";
import { formatDuration } from "@/lib/format";
import { Button } from "../ui/button";

export type Delivery = {
  id: string;
  deliveryId: string;
  redeliveryOf: string | null;
  event: string;
  runId: string | null;
  attempt: number;
  maxAttempts: number;
  state: "pending" | "sending" | "delivered" | "failed";
  statusCode: number | null;
  reason: string | null;
  durationMs: number | null;
  dueAt: string;
  sentAt: string | null;
  createdAt: string;
};

export const isOpen = (d: Delivery) => d.state === "pending" || d.state === "sending";
const dateTime = (iso: string) => `${iso.replace("T", " ").slice(0, 19)} UTC`;
const clock = (iso: string) => iso.slice(11, 19);

const BADGE = {
  delivered: { label: "Delivered", look: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300" },
  failed: { label: "Failed", look: "bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300" },
  sending: { label: "Sending", look: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300" },
  pending: { label: "Retrying", look: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-300" },
} as const;

function Outcome({ d }: { d: Delivery }) {
  if (d.state === "pending") return <span>{d.attempt > 1 ? "retry waiting to be sent" : "waiting to be sent"}</span>;
  if (d.state === "sending") return <span>sent, no answer yet…</span>;
  const tone = d.state === "delivered" ? "text-emerald-700 dark:text-emerald-400" : "text-rose-700 dark:text-rose-400";
  return (
    <span>
      <span className={`font-medium ${tone}`}>{d.statusCode !== null ? `HTTP ${d.statusCode}` : "No response"}</span>
      {d.reason ? <span className="text-zinc-700 dark:text-zinc-300"> — {d.reason}</span> : null}
    </span>
  );
}

// One request: on a phone, the try, its time and duration above what came back; on a wider screen, one line.
function TryLine({ d }: { d: Delivery }) {
  const when = d.state === "pending" ? d.dueAt : (d.sentAt ?? d.createdAt);
  return (
    <li className="grid grid-cols-[auto_auto_1fr] gap-x-3 py-1 sm:grid-cols-[5.5rem_5.5rem_4.5rem_1fr]">
      <span className="font-medium whitespace-nowrap">
        Try {d.attempt} of {d.maxAttempts}
      </span>
      <time dateTime={when} className="whitespace-nowrap text-zinc-600 tabular-nums dark:text-zinc-400">
        {d.state === "pending" ? "due " : ""}
        {clock(when)}
      </time>
      <span className="whitespace-nowrap text-zinc-600 tabular-nums dark:text-zinc-400">
        {formatDuration(d.durationMs)}
      </span>
      <span className="col-span-3 min-w-0 break-words sm:col-span-1">
        <Outcome d={d} />
      </span>
    </li>
  );
}

// `tries`: the delivery's requests, newest first (as the API lists them).
export function DeliveryItem(props: {
  tries: Delivery[];
  isBusy: boolean;
  isSending: boolean;
  onRedeliver: (id: string) => void;
}) {
  const { tries } = props;
  const latest = tries[0];
  const first = tries[tries.length - 1];
  const badge = BADGE[latest.state];
  // A first try not sent yet is queued, not retried.
  const state = latest.state === "pending" && latest.attempt === 1 ? "Queued" : badge.label;
  const when = dateTime(first.createdAt);
  const shortId = latest.deliveryId.slice(0, 8);
  return (
    <li className="py-2.5">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className={`rounded-md px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${badge.look}`}>{state}</span>
        <code className="font-mono text-sm">{latest.event}</code>
        <time dateTime={first.createdAt} className="text-sm whitespace-nowrap tabular-nums">
          {when}
        </time>
        <span className="text-xs whitespace-nowrap text-zinc-600 dark:text-zinc-400">
          delivery <code className="font-mono">{shortId}</code>
          {latest.redeliveryOf ? (
            <>
              {", a redelivery of "}
              <code className="font-mono">{latest.redeliveryOf.slice(0, 8)}</code>
            </>
          ) : null}
          {latest.runId ? (
            <>
              {" · "}
              <Link href={`/runs/${latest.runId}`} className="underline underline-offset-2">
                run
              </Link>
            </>
          ) : null}
        </span>
        <Button
          size="sm"
          className="ml-auto"
          disabled={isOpen(latest) || props.isBusy}
          aria-label={`Redeliver ${latest.event} of ${when} (delivery ${shortId})`}
          onClick={() => props.onRedeliver(latest.id)}
        >
          {props.isSending ? "Sending…" : "Redeliver"}
        </Button>
      </div>
      <ol aria-label={`Tries of ${latest.event} of ${when} (delivery ${shortId})`} className="mt-1 text-xs sm:pl-1">
        {tries.map((d) => (
          <TryLine key={d.id} d={d} />
        ))}
      </ol>
    </li>
  );
}
