import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getPageActor } from "@/lib/auth/page-actor";
import { isPostgresUrl } from "@/lib/config/database-url";
import { formatDateTime, plural, relativeTime } from "@/lib/format";
import { listWorkers, type WorkerView } from "@/lib/services/workers";
import { EmptyState, PageHeader, Pill, rowListClass, Section } from "@/components/ui/page-parts";
import { config } from "@/lib/config/config";

export const metadata: Metadata = { title: "Workers" };
export const dynamic = "force-dynamic";

const STATE_TONE = { active: "emerald", silent: "amber", stopped: "zinc", lost: "amber" } as const;

export default async function WorkersPage() {
  const actor = await getPageActor();
  if (!actor.isAdmin) notFound();
  const workers = await listWorkers(actor);
  const onQueue = isPostgresUrl(config().databaseUrl);
  return (
    <>
      <PageHeader
        title="Workers"
        meta={
          onQueue
            ? "Processes that take runs from the PostgreSQL queue (npm run worker, or inside the server). " +
              "A worker silent for the lost threshold is lost: its runs end inconclusive or go back to the queue."
            : "Runs execute inside the server on SQLite; workers join only a server on PostgreSQL."
        }
      />
      <Section title={`Workers (${workers.length})`}>
        {workers.length === 0 ? (
          <EmptyState title="No worker has registered">
            {onQueue ? "Start one with npm run worker (DATABASE_URL set to this server's database)." : null}
          </EmptyState>
        ) : (
          <ul className={rowListClass} aria-label="Workers">
            {workers.map((w) => (
              <WorkerRow key={w.id} worker={w} />
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

function WorkerRow({ worker: w }: { worker: WorkerView }) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 px-4 py-3 text-sm" data-worker={w.name}>
      <div>
        <span className="font-medium">{w.name}</span> <Pill tone={STATE_TONE[w.state]}>{w.state}</Pill>
        <div className="text-xs text-zinc-600 dark:text-zinc-400">
          {w.host} · pid {w.pid} · {plural(w.concurrency, "run")} at once · started {formatDateTime(w.startedAt)} ·{" "}
          {w.stoppedAt ? `${w.state} ${formatDateTime(w.stoppedAt)}` : `heartbeat ${relativeTime(w.heartbeatAt)}`}
        </div>
      </div>
      <div className="text-xs">
        {w.runs.length === 0 ? (
          <span className="text-zinc-600 dark:text-zinc-400">no run</span>
        ) : (
          <ul aria-label={`Runs on ${w.name}`} className="flex flex-wrap gap-2">
            {w.runs.map((r) => (
              <li key={r.id}>
                <Link href={`/runs/${r.id}`} className="underline underline-offset-2">
                  {r.taskKey} #{r.number}
                </Link>{" "}
                <span className="text-zinc-600 dark:text-zinc-400">{r.status}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}
