"use client";
// The Work's lanes, edited inline: add and remove lanes, add, remove and reorder stages (buttons, so the
// keyboard can do it all), each stage's fields and its checks (the check editor the defaults use). Errors
// are the server's own, by path (lanes.0.stages.1.output).
import { errorsByField } from "@/lib/editors/check-form";
import { emptyLane, emptyStage, type LaneForm, type StageForm } from "@/lib/editors/lane-form";
import { Button } from "../ui/button";
import { CheckListEditor } from "./check-list-editor";
import { editorInputClass, FieldError } from "./field-parts";

type Props = { lanes: LaneForm[]; errors: Map<string, string>; onChange: (lanes: LaneForm[]) => void };

function TextField(props: {
  id: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  onChange: (value: string) => void;
  area?: boolean;
}) {
  const errorId = `${props.id}-error`;
  const common = {
    id: props.id,
    value: props.value,
    "aria-invalid": props.error ? true : undefined,
    "aria-describedby": props.error ? errorId : undefined,
    className: `${editorInputClass} font-mono text-sm`,
  };
  return (
    <div>
      <label htmlFor={props.id} className="mb-1 block text-xs font-medium">
        {props.label}
        {props.hint ? <span className="font-normal text-zinc-600 dark:text-zinc-400"> {props.hint}</span> : null}
      </label>
      {props.area ? (
        <textarea {...common} rows={3} onChange={(e) => props.onChange(e.target.value)} />
      ) : (
        <input {...common} onChange={(e) => props.onChange(e.target.value)} />
      )}
      <FieldError id={errorId} label={props.label} error={props.error} />
    </div>
  );
}

function StageFields(props: {
  stage: StageForm;
  at: string;
  n: number;
  errors: Map<string, string>;
  onChange: (patch: Partial<StageForm>) => void;
}) {
  const { stage, at, errors } = props;
  const id = (f: string) => `${at}-${stage.key}-${f}`;
  const e = (f: string) => errors.get(`${at}.${f}`);
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <TextField
        id={id("id")}
        label="Stage id"
        value={stage.id}
        error={e("id")}
        onChange={(v) => props.onChange({ id: v })}
      />
      <TextField
        id={id("name")}
        label="Stage name"
        value={stage.name}
        error={e("name")}
        onChange={(v) => props.onChange({ name: v })}
      />
      <TextField
        id={id("output")}
        label="Output file"
        hint="(relative to the checkout; empty: none)"
        value={stage.output}
        error={e("output")}
        onChange={(v) => props.onChange({ output: v })}
      />
      <TextField
        id={id("attempts")}
        label="Attempts"
        hint="(1–5; empty: 3)"
        value={stage.maxAttempts}
        error={e("maxAttempts")}
        onChange={(v) => props.onChange({ maxAttempts: v })}
      />
      <div className="sm:col-span-2">
        <TextField
          id={id("skill")}
          label="Skill"
          hint="(Markdown the stage's brief carries)"
          area
          value={stage.skill}
          error={e("skill")}
          onChange={(v) => props.onChange({ skill: v })}
        />
      </div>
      <div className="sm:col-span-2">
        <h3 className="mb-2 text-xs font-semibold">Checks of stage {stage.name || stage.id}</h3>
        <CheckListEditor
          label={`Checks of stage ${stage.name || stage.id}`}
          forms={stage.checks}
          errors={errorsByField(errors, `${at}.checks`)}
          listError={e("checks")}
          onChange={(checks) => props.onChange({ checks })}
        />
      </div>
    </div>
  );
}

export function LaneEditor({ lanes, errors, onChange }: Props) {
  const setLane = (i: number, patch: Partial<LaneForm>) =>
    onChange(lanes.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const setStages = (i: number, stages: StageForm[]) => setLane(i, { stages });
  return (
    <div className="space-y-6">
      {errors.get("lanes") ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          {errors.get("lanes")}
        </p>
      ) : null}
      {lanes.map((lane, li) => (
        <section
          key={lane.key}
          aria-label={`Lane ${lane.name || lane.id}`}
          className="rounded-lg border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
        >
          <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
            <TextField
              id={`lane-${lane.key}-id`}
              label="Lane id"
              value={lane.id}
              error={errors.get(`lanes.${li}.id`)}
              onChange={(v) => setLane(li, { id: v })}
            />
            <TextField
              id={`lane-${lane.key}-name`}
              label="Lane name"
              value={lane.name}
              error={errors.get(`lanes.${li}.name`)}
              onChange={(v) => setLane(li, { name: v })}
            />
            <Button variant="ghost" onClick={() => onChange(lanes.filter((_, j) => j !== li))}>
              Remove lane {lane.name || lane.id}
            </Button>
          </div>
          {errors.get(`lanes.${li}.stages`) ? (
            <p role="alert" className="mt-2 text-sm text-rose-600 dark:text-rose-400">
              {errors.get(`lanes.${li}.stages`)}
            </p>
          ) : null}
          <ol className="mt-4 space-y-4" aria-label={`Stages of lane ${lane.name || lane.id}`}>
            {lane.stages.map((stage, si) => {
              const move = (by: -1 | 1) => {
                const next = [...lane.stages];
                [next[si], next[si + by]] = [next[si + by], next[si]];
                setStages(li, next);
              };
              const label = stage.name || stage.id;
              return (
                <li
                  key={stage.key}
                  aria-label={`Stage ${si + 1}: ${label}`}
                  className="rounded-md border border-zinc-200 p-3 dark:border-zinc-700"
                >
                  <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                    <span className="text-sm font-semibold">
                      {si + 1}. {label}
                    </span>
                    <span className="flex flex-wrap gap-1">
                      <Button
                        variant="ghost"
                        disabled={si === 0}
                        onClick={() => move(-1)}
                        aria-label={`Move stage ${label} up`}
                      >
                        Up
                      </Button>
                      <Button
                        variant="ghost"
                        disabled={si === lane.stages.length - 1}
                        onClick={() => move(1)}
                        aria-label={`Move stage ${label} down`}
                      >
                        Down
                      </Button>
                      <Button
                        variant="ghost"
                        onClick={() =>
                          setStages(
                            li,
                            lane.stages.filter((_, j) => j !== si),
                          )
                        }
                        aria-label={`Remove stage ${label}`}
                      >
                        Remove
                      </Button>
                    </span>
                  </div>
                  <StageFields
                    stage={stage}
                    at={`lanes.${li}.stages.${si}`}
                    n={si}
                    errors={errors}
                    onChange={(patch) =>
                      setStages(
                        li,
                        lane.stages.map((s, j) => (j === si ? { ...s, ...patch } : s)),
                      )
                    }
                  />
                </li>
              );
            })}
          </ol>
          <Button
            variant="secondary"
            onClick={() => setStages(li, [...lane.stages, emptyStage(lane.stages.map((s) => s.id))])}
          >
            Add a stage to {lane.name || lane.id}
          </Button>
        </section>
      ))}
      <Button variant="secondary" onClick={() => onChange([...lanes, emptyLane(lanes.map((l) => l.id))])}>
        Add a lane
      </Button>
    </div>
  );
}
