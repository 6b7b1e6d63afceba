"use client";
// A task's title and description, and its overrides, inline: next to each of the Work's checks, override
// (copy it here to edit), suppress, or back to inherit; task-only checks; reset to inherit all; the attempt
// budget; and a live preview of exactly what a dispatch would freeze. One save for all of it.
import { useMemo } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { Check } from "@/lib/gates/check-schema";
import { resolveChecks } from "@/lib/gates/merge-checks";
import {
  addedForm,
  errorsByField,
  errorsOfEntry,
  formFromCheck,
  freeId,
  type CheckForm,
} from "@/lib/editors/check-form";
import { isUntouchedCheckError } from "@/lib/editors/check-form";
import { taskFormFrom, taskPatchFrom, validateTaskForm, type TaskSettings } from "@/lib/editors/task-form";
import { criteriaOf } from "@/lib/gates/evidence";
import type { ProfileRequirementsInput } from "@/lib/gates/profile-requirements";
import { DeclaredChecks } from "../checks/declared-checks";
import { ProfileNote } from "../checks/profile-note";
import { Button } from "../ui/button";
import { Section } from "../ui/page-parts";
import { CheckFields } from "./check-fields";
import { ConflictPanel } from "./conflict-panel";
import { InheritedCheckRow } from "./inherited-check-row";
import { SaveBar } from "./save-bar";
import { TaskAgentField } from "./task-agent-field";
import { TaskLaneField } from "./task-lane-field";
import { TaskTextFields } from "./task-text-fields";
import { useLeaveGuard } from "./use-leave-guard";
import { useVersionedSettings } from "./use-versioned-settings";

type Props = {
  defaults: Check[];
  // The Work's profile and layers: the preview says what they will ask of this task's runs.
  profile: Omit<ProfileRequirementsInput, "criteria">;
  workAttempts: number;
  workAgentCommand: string | null;
  canSetAgent: boolean;
  // Below lead, the Work's held-out checks are the lead's: neither overridden nor suppressed here.
  canChangeHeldOut: boolean;
  // The Work's lanes a task may be put on (none: the lane picker is left out for a task on no lane), with
  // their stages' checks as this reader may see them; and the lane and stage the task stands at now.
  lanes: { id: string; name: string; stages: { id: string; name: string; checks: Check[] }[] }[];
  standsAt: { lane: string | null; stage: string | null };
  initial: TaskSettings;
  save: (input: unknown) => Promise<ActionResult<TaskSettings>>;
};

const settingsOf = (s: TaskSettings) => ({
  title: s.title,
  description: s.description,
  acceptanceChecks: s.acceptanceChecks,
  maxGateAttempts: s.maxGateAttempts,
  agentCommand: s.agentCommand,
  lane: s.lane,
});

export function TaskOverridesEditor({
  defaults,
  profile,
  workAttempts,
  workAgentCommand,
  canSetAgent,
  canChangeHeldOut,
  lanes,
  standsAt,
  initial,
  save,
}: Props) {
  const editor = useVersionedSettings({ initial, save, formFrom: taskFormFrom, patchFrom: taskPatchFrom });
  useLeaveGuard(editor.isDirty);
  const { form, setForm, version, conflict } = editor;
  const { errors, entries } = useMemo(() => validateTaskForm(form, version, defaults), [form, version, defaults]);
  // A check just added shows no problem until something is typed in it: the save bar says to fill it in.
  const isToFillIn = (p: string) => isUntouchedCheckError(p, "acceptanceChecks", form.entries ?? []);
  // On a lane a dispatch runs the stage the task would stand at: its own now, or a new lane's first.
  const lane = lanes.find((l) => l.id === form.lane);
  const stage = lane
    ? ((form.lane === standsAt.lane ? lane.stages.find((s) => s.id === standsAt.stage) : null) ?? lane.stages[0])
    : null;
  const preview = useMemo(
    () => (stage ? resolveChecks(stage.checks, null) : errors.size === 0 ? resolveChecks(defaults, entries) : null),
    [stage, errors, entries, defaults],
  );
  const list = form.entries ?? [];
  const defaultIds = new Set(defaults.map((d) => d.id));
  const listErrors = errorsByField(errors, "acceptanceChecks");

  const setEntries = (next: CheckForm[] | null) => setForm({ ...form, entries: next });
  const update = (key: string, patch: Partial<CheckForm>) =>
    setEntries(list.map((e) => (e.key === key ? { ...e, ...patch } : e)));

  return (
    <div className="space-y-8">
      <Section id="about" title="Title and description">
        <TaskTextFields
          title={form.title}
          description={form.description}
          errors={errors}
          onChange={(patch) => setForm({ ...form, ...patch })}
        />
      </Section>
      {lanes.length > 0 || form.lane !== "" ? (
        <Section
          id="lane"
          title="Lane"
          description="On a lane, a dispatch runs the task's current stage; moving it starts at the lane's first stage."
        >
          <TaskLaneField lanes={lanes} value={form.lane} onChange={(lane) => setForm({ ...form, lane })} />
        </Section>
      ) : null}
      <Section id="attempts" title="Attempts per run">
        <label htmlFor="task-attempts" className="sr-only">
          Attempts per run
        </label>
        <select
          id="task-attempts"
          value={form.maxGateAttempts}
          onChange={(e) => setForm({ ...form, maxGateAttempts: e.target.value })}
          className={
            "rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm " +
            "dark:border-zinc-700 dark:bg-zinc-950"
          }
        >
          <option value="inherit">Inherit from the Work ({workAttempts})</option>
          {[1, 2, 3, 4, 5].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </Section>
      <Section id="agent" title="Agent">
        <TaskAgentField
          value={form.agentCommand}
          workCommand={workAgentCommand}
          error={errors.get("agentCommand")}
          canEdit={canSetAgent}
          onChange={(agentCommand) => setForm({ ...form, agentCommand })}
        />
      </Section>
      <Section
        id="inherited"
        title="The Work's checks"
        description={
          form.entries === null
            ? "This task inherits every default untouched."
            : "Override to edit a copy for this task, suppress to leave it out, inherit to go back."
        }
        actions={
          <Button size="sm" disabled={form.entries === null} onClick={() => setEntries(null)}>
            Reset to inherit all
          </Button>
        }
      >
        <ol className="space-y-3" aria-label="The Work's checks">
          {defaults.map((d) => {
            const at = list.findIndex((e) => e.id === d.id && !e.isAdded);
            const entry = at === -1 ? null : list[at];
            return (
              <InheritedCheckRow
                key={d.id}
                check={d}
                state={!entry ? "inherited" : entry.disabled ? "suppressed" : "overridden"}
                isLeadsOnly={d.hidden === true && !canChangeHeldOut}
                onOverride={() => setEntries([...list.filter((e) => e.id !== d.id || e.isAdded), formFromCheck(d)])}
                onSuppress={() =>
                  setEntries([
                    ...list.filter((e) => e.id !== d.id || e.isAdded),
                    { ...formFromCheck(d), disabled: true },
                  ])
                }
                onInherit={() => setEntries(list.filter((e) => e.id !== d.id || e.isAdded))}
              >
                {entry && !entry.disabled ? (
                  <CheckFields
                    form={entry}
                    prefix={`ov-${entry.key}`}
                    isIdLocked
                    errors={errorsOfEntry(listErrors, at)}
                    onChange={(patch) => update(entry.key, patch)}
                  />
                ) : null}
              </InheritedCheckRow>
            );
          })}
        </ol>
      </Section>
      <Section id="added" title="Task-only checks" description="Run after the Work's checks, in this order.">
        <ol className="space-y-3" aria-label="Task-only checks">
          {list.map((entry, i) =>
            defaultIds.has(entry.id) && !entry.isAdded ? null : entry.disabled ? (
              <li
                key={entry.key}
                role="note"
                className={
                  "flex flex-wrap items-center justify-between gap-2 rounded-md bg-amber-50 px-3 " +
                  "py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
                }
              >
                “{entry.id}” is suppressed here, but the Work has no such check any more.{" "}
                <Button size="sm" onClick={() => setEntries(list.filter((e) => e.key !== entry.key))}>
                  Remove
                </Button>
              </li>
            ) : (
              <li
                key={entry.key}
                aria-label={`Task check ${entry.name || entry.id}`}
                className={
                  "rounded-lg border border-violet-200 bg-white p-4 shadow-sm " +
                  "dark:border-violet-900 dark:bg-zinc-900"
                }
              >
                <div className="mb-3 flex items-center justify-between gap-2">
                  <span className="min-w-0 text-sm font-semibold [overflow-wrap:anywhere]">
                    {entry.name || "New check"}
                  </span>
                  <Button
                    size="sm"
                    variant="danger"
                    onClick={() => setEntries(list.filter((e) => e.key !== entry.key))}
                  >
                    Delete
                  </Button>
                </div>
                <CheckFields
                  form={entry}
                  prefix={`add-${entry.key}`}
                  errors={errorsOfEntry(listErrors, i)}
                  onChange={(patch) => update(entry.key, patch)}
                />
              </li>
            ),
          )}
        </ol>
        <Button
          className="mt-3"
          onClick={() =>
            setEntries([...list, addedForm(freeId("task-check", [...defaultIds, ...list.map((e) => e.id)]))])
          }
        >
          + Add a check
        </Button>
        {errors.get("acceptanceChecks") ? (
          <p role="alert" className="mt-2 text-sm text-rose-600">
            {errors.get("acceptanceChecks")}
          </p>
        ) : null}
      </Section>
      <Section
        id="preview"
        title="Preview: what a dispatch would freeze"
        description={
          stage && lane
            ? `On lane ${lane.name}: stage ${stage.name}'s checks, not the task's (the overrides apply off a lane).`
            : "Updates as you edit."
        }
      >
        {preview ? (
          <div className="space-y-3">
            <ProfileNote {...profile} criteria={criteriaOf(preview.checks)} />
            <DeclaredChecks checks={preview.checks} suppressed={preview.suppressed} warnings={[]} />
          </div>
        ) : (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">Fix the problems above to see the preview.</p>
        )}
      </Section>
      {conflict ? (
        <ConflictPanel
          what="task"
          theirVersion={conflict.version}
          before={settingsOf(editor.base)}
          theirs={settingsOf(conflict)}
          onLoadTheirs={() => editor.loadTheirs(conflict)}
          onKeepMine={() => editor.keepMine(conflict)}
        />
      ) : null}
      <SaveBar
        problems={[...errors.keys()].filter((p) => !isToFillIn(p)).length}
        isIncomplete={[...errors.keys()].some(isToFillIn)}
        isDirty={editor.isDirty}
        isPending={editor.isPending}
        version={version}
        message={editor.message}
        onSave={editor.submit}
        onDiscard={editor.discard}
      />
    </div>
  );
}
