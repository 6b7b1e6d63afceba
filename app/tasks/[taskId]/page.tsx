import { pageNumberParam } from "@/lib/pages/query-params";
import type { Metadata } from "next";
import { sameJson } from "@/lib/gates/same-json";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { loadTaskPage } from "@/lib/services/page-data";
import { loadRunDetail } from "@/lib/services/run-detail";
import { withholdHidden } from "@/lib/gates/held-out";
import { criteriaOf } from "@/lib/gates/evidence";
import { ProfileNote } from "@/components/checks/profile-note";
import { standingAllows, standingOn } from "@/lib/services/access";
import { presentRun } from "@/lib/api/present-run";
import { toJson } from "@/lib/api/jsonify";
import { DeclaredChecks } from "@/components/checks/declared-checks";
import { RunChecksPanel } from "@/components/runs/run-checks-panel";
import { RunHistory } from "@/components/runs/run-history";
import { DispatchButton } from "@/components/runs/dispatch-button";
import { runStatusLabel } from "@/components/runs/ending-badge";
import { Breadcrumbs, EmptyState, PageHeader, Pill, Section } from "@/components/ui/page-parts";
import { BranchIcon } from "@/components/ui/icons";
import { buttonClass } from "@/components/ui/button";
import { MergePanel } from "@/components/landing/merge-panel";
import { landingWarning, readMergeState } from "@/lib/services/merge";
import { LandingWarning } from "@/components/works/landing-warning";
import { dispatchTaskAction, mergeTaskAction } from "./actions";
import { readStepper } from "@/lib/services/board";
import { currentStageOf } from "@/lib/services/tasks";
import { canChangeWorkIdentity } from "@/lib/services/works";
import { StageStepper } from "@/components/stages/stage-stepper";
import Link from "next/link";
import { cache } from "react";

// One load per request, shared by the metadata and the page.
const getTaskPage = cache(async (taskId: string, before?: number) =>
  loadTaskPage(await getPageActor(), taskId, before),
);

type Props = { params: Promise<{ taskId: string }>; searchParams: Promise<{ before?: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { taskId } = await params;
  const { task } = await orNotFound(getTaskPage(taskId, undefined));
  return { title: `${task.key} ${task.title}` };
}

export default async function TaskPage({ params, searchParams }: Props) {
  const { taskId } = await params;
  const before = pageNumberParam((await searchParams).before);
  const actor = await getPageActor();
  const { task, work, runs, hasMore } = await orNotFound(getTaskPage(taskId, before));
  const latest = runs[0] && !before ? await loadRunDetail(actor, runs[0].id) : null;
  const standing = await standingOn(actor, work.id);
  const canDispatch = standingAllows(standing, "engineer");
  // On a lane, a dispatch runs the current stage: its checks and attempts are the ones declared now.
  const onStage = currentStageOf(task, work);
  const declared = withholdHidden(task.effective.checks, standingAllows(standing, "lead"));
  const suppressed = task.effective.suppressed;
  const warnings = task.warnings;
  // A stage run ran its stage's checks, not the task's: comparing them with the task's says nothing.
  const isChangedSinceRun = latest && !latest.run.stage ? !sameJson(latest.run.checks, declared) : false;
  const stepper = await readStepper(task, work);
  const mergeState = canDispatch ? await readMergeState(task, work) : null;
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Works", href: "/works" },
          { label: work.name, href: `/works/${work.id}` },
          { label: task.key },
        ]}
      />
      <PageHeader
        eyebrow={task.key}
        title={task.title}
        meta={
          <>
            <span className="inline-flex items-center gap-1">
              <BranchIcon /> <code className="font-mono">{task.branch}</code>
            </span>
            <span data-testid="task-attempts">
              {onStage
                ? `${onStage.attempts} attempt${onStage.attempts === 1 ? "" : "s"} (stage ${onStage.stage.name})`
                : `${task.effectiveMaxGateAttempts} attempts${task.maxGateAttempts === null ? " (from the Work)" : ""}`}
            </span>
            <span>policy {work.checksPolicy}</span>
            <span data-testid="task-agent-command" className="inline-flex min-w-0 max-w-full items-center gap-1">
              {/* On a phone the command is cut short, never the words around it. */}
              <span className="shrink-0">agent</span>{" "}
              {(task.agentCommand ?? work.agentCommand) ? (
                <>
                  <code
                    className="min-w-0 max-w-72 truncate font-mono"
                    title={task.agentCommand ?? work.agentCommand ?? ""}
                  >
                    {task.agentCommand ?? work.agentCommand}
                  </code>{" "}
                  <span className="shrink-0 whitespace-nowrap">
                    {task.agentCommand ? "(this task's)" : "(from the Work)"}
                  </span>
                </>
              ) : (
                "none: a red attempt waits for a person"
              )}
            </span>
          </>
        }
        actions={
          canDispatch ? (
            <>
              <Link href={`/tasks/${task.id}/edit`} className={buttonClass("secondary")}>
                Edit task
              </Link>
              <DispatchButton
                dispatch={dispatchTaskAction.bind(null, task.id)}
                busyWith={
                  latest && latest.run.status !== "finished"
                    ? {
                        id: latest.run.id,
                        number: latest.run.number,
                        state: runStatusLabel(latest.run.status).toLowerCase(),
                      }
                    : null
                }
              />
            </>
          ) : null
        }
      />
      {canDispatch ? (
        <LandingWarning
          message={await landingWarning(work)}
          workId={work.id}
          canChangeRepository={canChangeWorkIdentity(actor)}
        />
      ) : null}
      <MergePanel
        merged={
          task.mergedCommit && task.mergedAt
            ? { commit: task.mergedCommit, at: task.mergedAt.toISOString(), by: task.mergedBy }
            : null
        }
        autoMergeError={task.autoMergeError}
        // Once merged, Merge comes back only when the branch has moved past the merge (else: nothing to merge).
        merge={mergeState && !mergeState.isMergedAtHead ? mergeTaskAction.bind(null, task.id) : null}
        refusedInAdvance={mergeState?.refusedInAdvance ?? null}
        branch={task.branch}
        base={work.baseBranch}
        method={work.mergePolicy.method}
        repository={work.repoUrl}
      />
      {stepper ? <StageStepper lane={stepper.lane} steps={stepper.steps} /> : null}
      {task.description ? (
        <p
          className={
            "mb-8 max-w-3xl text-sm leading-6 whitespace-pre-wrap text-zinc-700 dark:text-zinc-300 " +
            "[overflow-wrap:anywhere]"
          }
        >
          {task.description}
        </p>
      ) : null}
      <Section
        id="checks"
        title="Checks"
        description={
          latest ? (
            <>
              What run{" "}
              <Link className="underline" href={`/runs/${latest.run.id}`}>
                #{latest.run.number}
              </Link>{" "}
              froze and ran.
            </>
          ) : onStage ? (
            `Declared for stage ${onStage.stage.name}: what a dispatch would freeze now.`
          ) : (
            "Declared for this task: what a dispatch would freeze now."
          )
        }
      >
        <div className="mb-3">
          <ProfileNote
            profile={work.profile}
            criteria={criteriaOf(onStage?.checks ?? task.effective.checks)}
            hasReview={!!work.reviewCommand}
            hasRedTeam={!!work.redTeamCommand}
          />
        </div>
        {latest ? (
          <>
            {isChangedSinceRun ? (
              <p
                role="note"
                className="mb-3 rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-900 dark:bg-sky-950 dark:text-sky-200"
              >
                The task&apos;s checks have changed since this run was dispatched; the next dispatch freezes the new set
                (below).
              </p>
            ) : null}
            <RunChecksPanel initial={toJson(presentRun(latest))} />
            <details className="mt-4">
              <summary className="cursor-pointer py-0.5 text-sm font-medium text-zinc-600 dark:text-zinc-400">
                Declared checks now {isChangedSinceRun ? <Pill tone="sky">changed</Pill> : null}
              </summary>
              <div className="mt-3">
                <DeclaredChecks checks={declared} suppressed={suppressed} warnings={warnings} />
              </div>
            </details>
          </>
        ) : (
          <DeclaredChecks checks={declared} suppressed={suppressed} warnings={warnings} />
        )}
      </Section>
      <Section id="runs" title="Runs">
        {runs.length === 0 ? (
          <EmptyState title="No runs yet">Dispatch the task to run its checks in its own worktree.</EmptyState>
        ) : (
          <RunHistory
            runs={runs}
            olderHref={hasMore ? `/tasks/${task.id}?before=${runs[runs.length - 1].number}#runs` : null}
          />
        )}
      </Section>
    </>
  );
}
