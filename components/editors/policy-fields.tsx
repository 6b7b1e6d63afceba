"use client";
// How a Work's runs are judged: policy (each explained), attempts, budget, fail fast, strict evaluation.
import { CHECKS_POLICIES } from "@/lib/gates/work-schema";
import { POLICY_EXPLAINED, type WorkForm } from "@/lib/editors/work-form";
import { inputBorderClass } from "../ui/action-form";
import { editorInputClass, FieldError } from "./field-parts";

type Props = { form: WorkForm; onChange: (patch: Partial<WorkForm>) => void; errors: Map<string, string> };

const input = `${editorInputClass} ${inputBorderClass} aria-[invalid=true]:border-rose-500`;

// The chosen policy's card is blue, the others plain.
const CHOSEN = "border-sky-500 bg-sky-50 dark:bg-sky-950/40";
const NOT_CHOSEN = "border-zinc-200 dark:border-zinc-800";

export function PolicyFields({ form, onChange, errors }: Props) {
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <fieldset>
        <legend className="mb-2 text-sm font-semibold">Checks policy</legend>
        <div className="space-y-2">
          {CHECKS_POLICIES.map((p) => (
            <label
              key={p}
              className={
                `flex cursor-pointer gap-3 rounded-md border p-3 text-sm ` +
                `${form.checksPolicy === p ? CHOSEN : NOT_CHOSEN}`
              }
            >
              <input
                type="radio"
                name="checksPolicy"
                value={p}
                checked={form.checksPolicy === p}
                onChange={() => onChange({ checksPolicy: p })}
                className="mt-0.5"
              />
              <span>
                <span className="font-medium">{p}</span>
                <span className="block text-zinc-600 dark:text-zinc-400">{POLICY_EXPLAINED[p]}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid content-start gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="maxGateAttempts" className="mb-1 block text-sm font-semibold">
            Attempts per run
          </label>
          <select
            id="maxGateAttempts"
            value={form.maxGateAttempts}
            onChange={(e) => onChange({ maxGateAttempts: e.target.value })}
            className={input}
          >
            {[1, 2, 3, 4, 5].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <FieldError id="maxGateAttempts-error" label="Attempts" error={errors.get("maxGateAttempts")} />
        </div>
        <div>
          <label htmlFor="budgetSec" className="mb-1 block text-sm font-semibold">
            Budget (seconds)
          </label>
          <input
            id="budgetSec"
            value={form.budgetSec}
            placeholder="no limit"
            aria-invalid={errors.has("budgetSec")}
            onChange={(e) => onChange({ budgetSec: e.target.value })}
            className={`${input} font-mono`}
          />
          <FieldError id="budgetSec-error" label="Budget" error={errors.get("budgetSec")} />
        </div>
        <div>
          <label htmlFor="budgetUsd" className="mb-1 block text-sm font-semibold">
            Budget (USD)
          </label>
          <input
            id="budgetUsd"
            value={form.budgetUsd}
            placeholder="no limit"
            inputMode="decimal"
            aria-invalid={errors.has("budgetUsd")}
            onChange={(e) => onChange({ budgetUsd: e.target.value })}
            className={`${input} font-mono`}
          />
          <FieldError id="budgetUsd-error" label="USD budget" error={errors.get("budgetUsd")} />
          <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
            What the agent CLI reports it cost, added up over the run.
          </p>
        </div>
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <input
            type="checkbox"
            checked={form.failFast}
            onChange={(e) => onChange({ failFast: e.target.checked })}
            className="size-4"
          />
          Fail fast: stop an attempt&apos;s checks at the first failing required check
        </label>
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <input
            type="checkbox"
            checked={form.strictEvaluation}
            onChange={(e) => onChange({ strictEvaluation: e.target.checked })}
            className="size-4"
          />
          Strict: a required agent check the agent did not report makes the gate red
        </label>
      </div>
    </div>
  );
}
