import type { Metadata } from "next";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { readLogLines } from "@/lib/services/logs";
import { buildRunDetail } from "@/lib/services/run-detail";
import { readPageRun } from "@/lib/pages/page-reads";
import { runPageHrefOf } from "@/lib/pages/run-page-view";
import { formatDuration } from "@/lib/format";
import { formatBytes } from "@/lib/runner/output/text";
import { LogViewer } from "@/components/logs/log-viewer";
import { VerdictBadge } from "@/components/checks/verdict-badge";
import { Breadcrumbs, NotFoundPanel } from "@/components/ui/page-parts";
import { isAppError } from "@/lib/errors";
import { isStoppedRow } from "@/lib/gates/row-warning";

const INITIAL_LINES = 100;

type Props = { params: Promise<{ runId: string; n: string; checkId: string }> };

// The log's toolbar is dark in both themes, so its links are light in both.
const toolbarLink =
  "inline-flex items-center rounded-md px-2.5 py-1 text-xs font-medium text-zinc-300 " +
  "transition-colors hover:bg-zinc-800 hover:text-white";

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { checkId, n } = await params;
  return { title: `${checkId === "_agent" ? "Agent" : checkId} log, attempt ${n}` };
}

export default async function LogPage({ params }: Props) {
  const { runId, n, checkId } = await params;
  const actor = await getPageActor();
  const [detail, initial] = await Promise.all([
    // The run as the layouts above read it (one read a request), its detail built here.
    orNotFound(readPageRun(runId).then(({ run, seesHidden }) => buildRunDetail(run, seesHidden))),
    // The last lines, as many as the viewer's first view and its overscan hold: the page's size (read,
    // sent and parsed before the last line shows) does not depend on the log's; the viewer fetches the
    // chunks around them as soon as it runs.
    orNotFound(readLogLines(actor, runId, n, checkId, 0, INITIAL_LINES)).catch((error: unknown) => {
      // A held-out check's log, to someone below lead: said here, not a server error.
      if (isAppError(error) && error.code === "forbidden") return { refused: error.message };
      throw error;
    }),
  ]);
  if ("refused" in initial)
    return (
      <NotFoundPanel
        title="This log is shown to leads only"
        text={`${initial.refused}. Its verdict is on the run's page.`}
        href={`/runs/${runId}?attempt=${n}`}
        linkLabel="Open the run"
      />
    );
  const attempt = detail.attempts.find((a) => String(a.n) === n);
  const result = attempt?.results.find((r) => r.checkId === checkId);
  const isAgent = checkId === "_agent";
  const verdict = isAgent ? attempt?.agentVerdict : result?.verdict;
  const note = isAgent ? attempt?.agentLogNote : result?.logNote;
  const api = `/api/runs/${runId}/attempts/${n}/checks/${checkId}/log`;
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Works", href: "/works" },
          { label: detail.work.name, href: `/works/${detail.work.id}` },
          { label: detail.task.key, href: `/tasks/${detail.task.id}` },
          { label: `Run #${detail.run.number}`, href: `/runs/${runId}` },
          // Back to the row this log is of, open, in its attempt (not the run's latest, every row closed).
          { label: `Attempt ${n}`, href: runPageHrefOf(runId, { attempt: attempt?.n ?? null, open: [checkId] }) },
          { label: "Full log" },
        ]}
      />
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-xl font-semibold tracking-tight [overflow-wrap:anywhere]">
          {isAgent ? "Agent" : (result?.name ?? checkId)}
        </h1>
        {isAgent ? null : <code className="text-sm text-zinc-500 dark:text-zinc-400">{checkId}</code>}
        {verdict ? <VerdictBadge verdict={verdict} isStopped={!!result && !isAgent && isStoppedRow(result)} /> : null}
        <span className="text-sm text-zinc-600 dark:text-zinc-400">
          {(isAgent ? attempt?.agentExitCode : result?.exitCode) != null
            ? `exit ${isAgent ? attempt?.agentExitCode : result?.exitCode} · `
            : ""}
          {formatDuration(isAgent ? attempt?.agentDurationMs : result?.durationMs)} · {formatBytes(initial.totalBytes)}
        </span>
      </div>
      {note ? (
        <p
          role="note"
          className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          This log was cut: {note.replace(/^log cut: /, "")}. The marker in the log shows where.
        </p>
      ) : null}
      <LogViewer
        base={api}
        initial={initial}
        actions={
          <>
            <a href={api} className={toolbarLink} target="_blank" rel="noreferrer">
              Raw
            </a>
            <a href={`${api}?download=1`} className={toolbarLink}>
              Download
            </a>
          </>
        }
      />
    </>
  );
}
