import type { Metadata } from "next";
import Link from "next/link";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { readPageWork } from "@/lib/pages/page-reads";
import { loadTasksWithLatestRun } from "@/lib/services/page-data";
import { canChangeWorkIdentity } from "@/lib/services/works";
import { DeclaredChecks } from "@/components/checks/declared-checks";
import { GateChip } from "@/components/checks/gate-chip";
import { EndingBadge } from "@/components/runs/ending-badge";
import { Breadcrumbs, EmptyState, PageHeader, rowListClass, Section } from "@/components/ui/page-parts";
import { TimeAgo } from "@/components/ui/time-ago";
import { buttonClass } from "@/components/ui/button";
import { NewTaskForm } from "@/components/works/new-task-form";
import { createTaskAction } from "./actions";
import { standingAllows, standingOn } from "@/lib/services/access";
import { withholdHidden } from "@/lib/gates/held-out";
import { ProfileNote } from "@/components/checks/profile-note";
import { LandingWarning } from "@/components/works/landing-warning";
import { landingWarning } from "@/lib/services/merge";
import { clonedHeadBranch } from "@/lib/runner/checkout/checkout";
import { config } from "@/lib/config/config";

type Props = { params: Promise<{ workId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await orNotFound(readPageWork((await params).workId))).name };
}

// A Work without a base branch builds on the repository's HEAD branch: named once a clone has seen it.
const headBranchWords = (seen: string | null) =>
  seen ? `${seen} (the repository's HEAD branch)` : "the repository's HEAD branch";

export default async function WorkPage({ params }: Props) {
  const { workId } = await params;
  const work = await orNotFound(readPageWork(workId));
  const actor = await getPageActor();
  const tasks = await loadTasksWithLatestRun(actor, workId);
  const standing = await standingOn(actor, workId);
  const isLead = standingAllows(standing, "lead");
  const isEngineer = standingAllows(standing, "engineer");
  return (
    <>
      <Breadcrumbs items={[{ label: "Works", href: "/works" }, { label: work.name }]} />
      <PageHeader
        title={work.name}
        meta={
          <>
            <code className="font-mono">{work.repoUrl}</code>
            <span>base {work.baseBranch ?? headBranchWords(clonedHeadBranch(config().dataDir, work.id))}</span>
            <span>policy {work.checksPolicy}</span>
            <span>{work.maxGateAttempts} attempts</span>
            {work.failFast ? <span>fail fast</span> : null}
            {work.strictEvaluation ? <span>strict evaluation</span> : null}
            {work.budgetSec ? <span>budget {work.budgetSec}s</span> : null}
          </>
        }
        actions={
          <>
            {isLead ? (
              <>
                <Link href={`/works/${work.id}/settings`} className={buttonClass("primary")}>
                  Edit checks and policy
                </Link>
                <Link href={`/works/${work.id}/settings/access`} className={buttonClass("secondary")}>
                  Access
                </Link>
                <Link href={`/audit?workId=${work.id}`} className={buttonClass("secondary")}>
                  Audit
                </Link>
              </>
            ) : null}
            {work.lanes.length > 0 ? (
              <Link href={`/works/${work.id}/board`} className={buttonClass("secondary")}>
                Board
              </Link>
            ) : null}
            <Link href={`/works/${work.id}/checks`} className={buttonClass("secondary")}>
              Check history
            </Link>
          </>
        }
      />
      <LandingWarning
        message={await landingWarning(work)}
        workId={work.id}
        canChangeRepository={canChangeWorkIdentity(actor)}
      />
      <Section
        id="tasks"
        title="Tasks"
        actions={
          isEngineer ? (
            <NewTaskForm
              create={createTaskAction.bind(null, work.id)}
              lanes={work.lanes.map((l) => ({ id: l.id, name: l.name }))}
            />
          ) : null
        }
      >
        {tasks.length === 0 ? (
          <EmptyState title="No tasks yet">
            {isEngineer ? "Create one with New task." : "Engineers create tasks here."}
          </EmptyState>
        ) : (
          <ul className={rowListClass}>
            {tasks.map(({ task, latest }) => (
              <li key={task.id}>
                <Link
                  href={`/tasks/${task.id}`}
                  className={
                    "grid grid-cols-[minmax(0,1fr)_auto] items-center gap-3 px-4 py-3 " +
                    "hover:bg-zinc-50 sm:grid-cols-[5.5rem_minmax(0,1fr)_auto_auto] " +
                    "dark:hover:bg-zinc-800/50"
                  }
                >
                  <span className="hidden font-mono text-sm text-zinc-500 sm:block dark:text-zinc-400">{task.key}</span>
                  <span className="min-w-0">
                    {/* Two lines on a phone (the narrow column); one, cut, beside the key on a wider screen. */}
                    <span className="line-clamp-2 font-medium [overflow-wrap:anywhere] sm:line-clamp-1">
                      {task.title}
                    </span>
                    <span className="text-xs text-zinc-500 dark:text-zinc-400">
                      <span className="sm:hidden">{task.key} · </span>
                      {task.effective.checks.length} checks
                      {latest ? (
                        <>
                          {" "}
                          · run #{latest.number} <TimeAgo date={latest.createdAt} />
                        </>
                      ) : (
                        " · never run"
                      )}
                    </span>
                    {/* On a phone the ending has no column of its own: under the title. */}
                    {latest ? (
                      <span className="mt-1 flex sm:hidden">
                        <EndingBadge
                          status={latest.status}
                          ending={latest.ending}
                          needsDecision={latest.needsDecision}
                          agentCaveat={latest.agentCaveat}
                        />
                      </span>
                    ) : null}
                  </span>
                  {latest ? (
                    <span className="hidden sm:block">
                      <EndingBadge
                        status={latest.status}
                        ending={latest.ending}
                        needsDecision={latest.needsDecision}
                        agentCaveat={latest.agentCaveat}
                      />
                    </span>
                  ) : (
                    <span className="hidden sm:block" />
                  )}
                  {latest ? (
                    <GateChip gate={latest.gate} ending={latest.ending} size="sm" />
                  ) : (
                    <span className="text-xs text-zinc-500 dark:text-zinc-400">—</span>
                  )}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section
        id="defaults"
        title="Check defaults"
        description="Every task inherits these unless it overrides or suppresses them."
      >
        <DeclaredChecks
          checks={withholdHidden(work.checkDefaults, isLead)}
          suppressed={[]}
          warnings={[]}
          showSource={false}
        />
        <div className="mt-3">
          <ProfileNote
            profile={work.profile}
            criteria={null}
            hasReview={!!work.reviewCommand}
            hasRedTeam={!!work.redTeamCommand}
          />
        </div>
        {work.agentCommand ? (
          <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
            Agent command:{" "}
            <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs dark:bg-zinc-800">
              {work.agentCommand}
            </code>
          </p>
        ) : null}
      </Section>
    </>
  );
}
