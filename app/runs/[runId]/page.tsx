import type { Metadata } from "next";
import { cache } from "react";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { loadRunDetail } from "@/lib/services/run-detail";
import { standingAllows, standingOn } from "@/lib/services/access";
import { presentRun } from "@/lib/api/present-run";
import { toJson } from "@/lib/api/jsonify";
import { formatDateTime } from "@/lib/format";
import { hasLayer } from "@/lib/gates/profiles";
import { DeclaredChecks } from "@/components/checks/declared-checks";
import { RunChecksPanel } from "@/components/runs/run-checks-panel";
import { FrozenCheckSources } from "@/components/runs/frozen-check-sources";
import { EvidenceLayer, MutationLayer, RedTeamLayer, ReviewLayer } from "@/components/runs/verification-layers";
import { DecisionPanel } from "@/components/runs/decision-panel";
import type { Lane } from "@/lib/gates/lanes";
import { RunActions } from "@/components/runs/run-actions";
import { WaitingForAFix } from "@/components/runs/waiting-for-a-fix";
import { EndingBadge, describeEndingReason } from "@/components/runs/ending-badge";
import { Breadcrumbs, PageHeader, Section } from "@/components/ui/page-parts";
import { BranchIcon } from "@/components/ui/icons";
import { AttemptsUsed, RunAgentCost, RunFromCommit, RunSpent } from "@/components/runs/run-live-facts";
import { DecisionRecord } from "@/components/runs/decision-record";
import { haveChecksChangedSince, redChecksOf } from "@/lib/services/decision-facts";
import { dispatchTaskAction } from "@/app/tasks/[taskId]/actions";
import { sandboxWords } from "@/lib/gates/sandbox-words";
import { currentSandbox } from "@/lib/runner/runtime";
import { cancelRunAction, decideRunAction, startNextAttemptAction } from "./actions";
import Link from "next/link";

// The profile's verification layers a run shows, in order: each a section of its own when the profile runs it.
const VERIFICATION_LAYERS = [
  {
    layer: "evidence",
    title: "Evidence",
    description: "Each acceptance criterion shown working by the agent in .gatehouse/evidence.md.",
    Panel: EvidenceLayer,
  },
  {
    layer: "review",
    title: "Review",
    description: "An independent review runs the criteria itself after a green gate.",
    Panel: ReviewLayer,
  },
  {
    layer: "red-team",
    title: "Red team",
    description: "Probes written to break the change: failing ones went back to the agent, passing ones are kept.",
    Panel: RedTeamLayer,
  },
  {
    layer: "mutation",
    title: "Mutation floor",
    description: "The changed files mutated: do the tests notice? Surviving mutants are changes no test caught.",
    Panel: MutationLayer,
  },
] as const;

const getRun = cache(async (runId: string) => loadRunDetail(await getPageActor(), runId));

type Props = { params: Promise<{ runId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { run, task } = await orNotFound(getRun((await params).runId));
  return { title: `${task.key} run #${run.number}` };
}

export default async function RunPage({ params }: Props) {
  const detail = await orNotFound(getRun((await params).runId));
  const { run, task, work, attempts } = detail;
  const actor = await getPageActor();
  const standing = await standingOn(actor, work.id);
  const canAct = standingAllows(standing, "engineer");
  const canDecide = standingAllows(standing, "lead");
  const json = toJson(presentRun(detail));
  const nextAttempt = run.status === "waiting" && attempts.length < run.maxAttempts ? attempts.length + 1 : null;
  // What it ran under, or (not started yet) what it will run under here.
  const sandbox = sandboxWords(run.sandboxMode ?? (run.status === "finished" ? null : currentSandbox().kind));
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Works", href: "/works" },
          { label: work.name, href: `/works/${work.id}` },
          { label: task.key, href: `/tasks/${task.id}` },
          { label: `Run #${run.number}` },
        ]}
      />
      <PageHeader
        eyebrow={`${task.key} · ${task.title}`}
        title={
          <span className="flex flex-wrap items-center gap-3">
            Run #{run.number}{" "}
            <EndingBadge
              status={run.status}
              ending={run.ending}
              needsDecision={run.needsDecision}
              isSuperseded={!!detail.decision.supersededBy}
              agentCaveat={run.agentCaveat}
            />
          </span>
        }
        meta={
          <>
            <span className="inline-flex items-center gap-1">
              <BranchIcon /> <code className="font-mono">{run.branch}</code>
            </span>
            <RunFromCommit initial={json} />
            <span>dispatched {formatDateTime(run.createdAt)}</span>
            {run.workerName ? <span>on worker {run.workerName}</span> : null}
            <RunSpent initial={json} />
            <RunAgentCost initial={json} />
            <span>
              policy {run.policy}
              {run.failFast ? " · fail fast" : ""}
              {run.strictEvaluation ? " · strict evaluation" : ""}
            </span>
            <span data-testid="run-profile">profile {run.profile}</span>
            <span data-testid="run-sandbox">{sandbox.label}</span>
          </>
        }
        actions={
          canAct && (
            <RunActions
              runId={run.id}
              nextAttempt={nextAttempt}
              canCancel={run.status !== "finished"}
              startNext={startNextAttemptAction.bind(null, run.id)}
              cancel={cancelRunAction.bind(null, run.id)}
            />
          )
        }
      />
      {sandbox.warning ? (
        <p
          role="note"
          data-testid="sandbox-warning"
          className={
            "mb-6 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900 " +
            "dark:border-red-700/60 dark:bg-red-950/40 dark:text-red-200"
          }
        >
          {sandbox.warning}
        </p>
      ) : null}
      {run.endingReason ? (
        <p className="-mt-2 mb-6 text-sm text-zinc-700 dark:text-zinc-300" data-testid="ending-reason">
          {describeEndingReason(run.endingReason)}
        </p>
      ) : null}
      {run.status === "waiting" && !run.agentCommand && nextAttempt !== null ? (
        <WaitingForAFix taskKey={task.key} branch={run.branch} nextAttempt={nextAttempt} />
      ) : null}
      {detail.decision.supersededBy ? (
        <p
          role="note"
          className={
            "mb-8 rounded-lg border border-zinc-300 bg-zinc-50 p-4 text-sm text-zinc-800 " +
            "dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
          }
        >
          Superseded by{" "}
          <Link className="font-medium underline" href={`/runs/${detail.decision.supersededBy.id}`}>
            run #{detail.decision.supersededBy.number}
          </Link>
          , a newer run of {task.key} that was accepted: no decision is needed any more.
        </p>
      ) : null}
      <DecisionRecord run={json} />
      {run.needsDecision && canDecide ? (
        <DecisionPanel
          runId={run.id}
          runNumber={run.number}
          bestAttempt={run.bestAttempt}
          bestCommit={run.bestCommit}
          redChecks={redChecksOf(detail)}
          frozenCount={run.checks.length}
          dispatchCurrent={
            (await haveChecksChangedSince(actor, detail)) ? dispatchTaskAction.bind(null, task.id) : null
          }
          decide={decideRunAction.bind(null, run.id)}
          stage={stuckStageOf(run)}
        />
      ) : run.needsDecision ? (
        <p
          role="note"
          className={
            "mb-8 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 " +
            "dark:border-amber-700/60 dark:bg-amber-950/40 dark:text-amber-200"
          }
        >
          This partial run waits for a decision by a lead of {work.name}.
        </p>
      ) : null}
      <Section id="checks" title="Checks" description={<AttemptsUsed initial={json} />}>
        {/* The attempt and the rows open are the address's (?attempt=2&open=unit), read by the panel itself. */}
        <RunChecksPanel initial={json} isInAddress />
      </Section>
      {VERIFICATION_LAYERS.filter((l) => hasLayer(run.profile, l.layer)).map(({ layer, title, description, Panel }) => (
        <Section key={layer} id={layer} title={title} description={description}>
          <Panel initial={json} />
        </Section>
      ))}
      <Section
        id="frozen"
        title="What this run froze"
        description="Editing the task or its Work later never changes this."
      >
        <DeclaredChecks checks={run.checks} suppressed={run.suppressed} warnings={run.warnings} />
        <FrozenCheckSources sources={run.checkSources} isFinished={run.status === "finished"} />
        {run.agentCommand ? (
          <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
            Agent command:{" "}
            <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs dark:bg-zinc-800">
              {run.agentCommand}
            </code>
          </p>
        ) : null}
      </Section>
    </>
  );
}

// What a stuck stage's decision may move the task to: the next stage (skip) and the earlier ones (send back).
function stuckStageOf(run: { lane: Lane | null; stage: string | null }) {
  if (!run.lane || !run.stage) return null;
  const at = run.lane.stages.findIndex((s) => s.id === run.stage);
  if (at < 0) return null;
  return {
    id: run.stage,
    next: run.lane.stages[at + 1]?.id ?? null,
    earlier: run.lane.stages.slice(0, at).map((s) => ({ id: s.id, name: s.name })),
  };
}
