"use client";
// The General section's form (admins): the Work's name, repository and base branch, saved together through
// a Server Action. A refused save keeps what was typed and puts each field's error beside it; a save
// answers with its version and what the server warns about (the repository cannot be reached, say).
import { startTransition, useActionState, useEffect, useRef, useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { describeIssues, issuesByField } from "@/lib/gates/field-issues";
import { buttonClass } from "../ui/button";
import { inputBorderClass } from "../ui/input-classes";
import { InlineError } from "../ui/inline-error";
import { editorInputClass, FieldError } from "../editors/field-parts";

type Saved = { version: number; warnings: string[] };
type Props = {
  work: { name: string; repoUrl: string; baseBranch: string | null; version: number };
  save: (state: ActionResult<Saved> | null, form: FormData) => Promise<ActionResult<Saved>>;
};

const FIELDS = ["name", "repoUrl", "baseBranch"] as const;
type FieldName = (typeof FIELDS)[number];
const input = `${editorInputClass} ${inputBorderClass} aria-[invalid=true]:border-rose-500`;

export function WorkGeneralForm({ work, save }: Props) {
  const [state, formAction, isPending] = useActionState(save, null);
  const form = useRef<HTMLFormElement>(null);
  // Until the page is live, Save would submit the form the browser's way (the fields into the address).
  const [isLive, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const { byField, rest } = issuesByField(state?.error?.fieldErrors ?? [], FIELDS);
  const fieldCount = Object.keys(byField).length;
  // A refused save takes the person to the first field it names.
  useEffect(() => {
    if (state?.error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [state]);
  // The page re-renders with the saved version; the answer may arrive first.
  const version = Math.max(work.version, state?.data?.version ?? 0);
  const field = (name: FieldName) => ({
    id: `general-${name}`,
    name,
    "aria-invalid": byField[name] ? true : undefined,
    "aria-describedby": `general-${name}-help${byField[name] ? ` general-${name}-error` : ""}`,
  });
  return (
    <form
      ref={form}
      aria-label="Name and repository"
      className="grid max-w-3xl gap-4"
      // Submitted by hand so a refused form keeps what was typed (a form action would clear it).
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        startTransition(() => formAction(data));
      }}
    >
      <input type="hidden" name="version" value={version} />
      <div>
        <label htmlFor="general-name" className="mb-1 block text-sm font-semibold">
          Name
        </label>
        <input {...field("name")} defaultValue={work.name} aria-required="true" className={input} />
        <FieldError id="general-name-error" label="Name" error={byField.name} />
        <p id="general-name-help" className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          1–120 characters. New tasks&apos; keys keep the prefix the Work was created with.
        </p>
      </div>
      <div>
        <label htmlFor="general-repoUrl" className="mb-1 block text-sm font-semibold">
          Repository
        </label>
        <input
          {...field("repoUrl")}
          defaultValue={work.repoUrl}
          aria-required="true"
          className={`${input} font-mono`}
        />
        <FieldError id="general-repoUrl-error" label="Repository" error={byField.repoUrl} />
        <p id="general-repoUrl-help" className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          Anything git clone accepts: a local path, file://…, https://…. Merge pushes to it, so a local one should be a
          bare clone (git clone --bare).
        </p>
      </div>
      <div>
        <label htmlFor="general-baseBranch" className="mb-1 block text-sm font-semibold">
          Base branch
        </label>
        <input {...field("baseBranch")} defaultValue={work.baseBranch ?? ""} className={`${input} font-mono`} />
        <FieldError id="general-baseBranch-error" label="Base branch" error={byField.baseBranch} />
        <p id="general-baseBranch-help" className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          Where tasks start from and merge into. Empty: the repository&apos;s HEAD branch.
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={!isLive || isPending} className={buttonClass("primary")}>
          {isPending ? "Saving…" : "Save"}
        </button>
        {state?.data ? (
          <p role="status" className="text-sm font-medium text-emerald-700 dark:text-emerald-400">
            Saved: version {state.data.version}
          </p>
        ) : null}
      </div>
      {state?.data?.warnings.length ? (
        <ul
          aria-label="Saved, with warnings"
          className={
            "space-y-1 rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm break-words " +
            "text-amber-950 dark:border-amber-600 dark:bg-amber-950/40 dark:text-amber-100"
          }
        >
          {state.data.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      {state?.error ? (
        <InlineError
          message={
            fieldCount > 0
              ? `Nothing was saved: fix the ${fieldCount === 1 ? "field" : "fields"} marked above.` +
                (rest.length > 0 ? ` Also: ${describeIssues(rest)}.` : "")
              : state.error.message
          }
        />
      ) : null}
    </form>
  );
}
