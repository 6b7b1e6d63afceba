import type { Metadata } from "next";
import Link from "next/link";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { readTask } from "@/lib/services/tasks";
import { readAudit } from "@/lib/services/audit";
import { withholdHidden } from "@/lib/gates/held-out";
import { standingAllows, standingOn } from "@/lib/services/access";
import { TaskOverridesEditor } from "@/components/editors/task-overrides-editor";
import { ChangeHistory } from "@/components/editors/change-history";
import { Breadcrumbs, PageHeader, Section } from "@/components/ui/page-parts";
import { saveTaskOverridesAction } from "../actions";

export const metadata: Metadata = { title: "Edit task" };

export default async function TaskEditPage({ params }: { params: Promise<{ taskId: string }> }) {
  const { taskId } = await params;
  const actor = await getPageActor();
  const { task, work } = await orNotFound(readTask(actor, taskId));
  const standing = await standingOn(actor, work.id);
  const canEdit = standingAllows(standing, "engineer");
  // Below lead, held-out checks are their name only: the Work's are blanked, the task's own are left out of
  // the editor (the service keeps them as the lead set them when an engineer saves).
  const seesHidden = standingAllows(standing, "lead");
  const history = await readAudit(actor, { workId: work.id, taskId, actionPrefix: "task." });
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Works", href: "/works" },
          { label: work.name, href: `/works/${work.id}` },
          { label: task.key, href: `/tasks/${task.id}` },
          { label: "Edit" },
        ]}
      />
      <PageHeader
        eyebrow={task.key}
        title={`Edit “${task.title}”`}
        meta={
          "Its title, description and checks: overrides apply to this task only; the Work's defaults stay as " +
          "they are. Runs already dispatched keep the checks they froze."
        }
      />
      {canEdit ? (
        <TaskOverridesEditor
          defaults={withholdHidden(work.checkDefaults, seesHidden)}
          profile={{ profile: work.profile, hasReview: !!work.reviewCommand, hasRedTeam: !!work.redTeamCommand }}
          workAttempts={work.maxGateAttempts}
          workAgentCommand={work.agentCommand}
          canSetAgent={standingAllows(standing, "lead")}
          canChangeHeldOut={seesHidden}
          lanes={work.lanes.map((l) => ({
            id: l.id,
            name: l.name,
            stages: l.stages.map((st) => ({ id: st.id, name: st.name, checks: withholdHidden(st.checks, seesHidden) })),
          }))}
          standsAt={{ lane: task.lane, stage: task.stage }}
          initial={{
            title: task.title,
            description: task.description,
            acceptanceChecks:
              seesHidden || !task.acceptanceChecks
                ? task.acceptanceChecks
                : task.acceptanceChecks.filter((e) => !("hidden" in e && e.hidden)),
            maxGateAttempts: task.maxGateAttempts,
            agentCommand: task.agentCommand,
            lane: task.lane,
            version: task.version,
          }}
          save={saveTaskOverridesAction.bind(null, task.id)}
        />
      ) : (
        <p className="rounded-lg border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-900">
          An engineer of {work.name} edits a task&apos;s title, description and checks.{" "}
          <Link className="underline" href={`/tasks/${task.id}`}>
            Back to the task
          </Link>
        </p>
      )}
      <div className="mt-10">
        <Section id="history" title="History">
          <ChangeHistory events={history.events} />
        </Section>
      </div>
    </>
  );
}
