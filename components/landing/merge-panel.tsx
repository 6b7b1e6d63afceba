"use client";
// Landing a task: "Merged as <commit>" once merged (the full commit one click away), the last auto-merge
// failure, and the Merge button for engineers — disabled with the reason when the merge would be refused
// anyway, asking once more before it pushes (the base branch cannot be taken back from here), and answering
// with the refusal (a conflict lists its files) when git or the remote refuses.
import { useRouter } from "next/navigation";
import { type RefObject, useEffect, useRef, useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { MergeMethod } from "@/lib/gates/merge-policy";
import { Button } from "../ui/button";
import { ConfirmStep, useConfirmStep } from "../ui/confirm-step";
import { Spinner } from "../ui/icons";
import { TimeAgo } from "../ui/time-ago";

type Props = {
  merged: { commit: string; at: string; by: string | null } | null;
  autoMergeError: string | null;
  // null when the actor may not merge, or when there is nothing new to merge (the button is not shown).
  merge: (() => Promise<ActionResult<{ commit: string; base: string }>>) | null;
  refusedInAdvance: string | null;
  // What a merge does, for the step that asks before it: the task branch, the Work's base branch (null: the
  // repository's HEAD branch, named as such, not as a branch called so), the method and the repository.
  branch: string;
  base: string | null;
  method: MergeMethod;
  repository: string;
};

function BaseBranch({ base }: { base: string | null }) {
  return base ? <code className="font-mono">{base}</code> : <>the repository's HEAD branch</>;
}

// What the confirming press will do, in the method's own words.
function WhatMergeDoes({ branch, base, method, repository }: Pick<Props, "branch" | "base" | "method" | "repository">) {
  const task = <code className="font-mono">{branch}</code>;
  const into = <BaseBranch base={base} />;
  return (
    <>
      {method === "fast-forward" ? (
        <>
          Fast-forwards {into} to {task}
        </>
      ) : method === "squash" ? (
        <>
          Squashes {task} into one commit on {into}
        </>
      ) : (
        <>
          Merges {task} into {into} with a merge commit
        </>
      )}{" "}
      (method: {method}) and pushes it to <code className="font-mono">{repository}</code>. Gatehouse cannot undo this.
    </>
  );
}

// After a merge from this panel, the focus goes to "Merged as" once it names the new commit: the Merge button that
// had it is gone (nothing left to merge), and a focus left on a removed button falls to the start of the page.
function useFocusOnMerged(commit: string | null): { ref: RefObject<HTMLDivElement | null>; owe: () => void } {
  const ref = useRef<HTMLDivElement>(null);
  // The commit shown when the merge was asked for (null: none); undefined: no focus owed.
  const [before, setBefore] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    if (before === undefined || commit === null || commit === before) return;
    ref.current?.focus();
    setBefore(undefined);
  }, [before, commit]);
  return { ref, owe: () => setBefore(commit) };
}

export function MergePanel({ merged, autoMergeError, merge, refusedInAdvance, ...what }: Props) {
  const { base } = what;
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  const [refusal, setRefusal] = useState<{ message: string; conflicts: string[] } | null>(null);
  const confirming = useConfirmStep();
  const mergedFocus = useFocusOnMerged(merged?.commit ?? null);
  if (!merged && !autoMergeError && !merge) return null;
  const runMerge = (act: NonNullable<Props["merge"]>) =>
    startTransition(async () => {
      setRefusal(null);
      const result = await act();
      if (result.error)
        setRefusal({
          message: result.error.message,
          conflicts: (result.error.details?.conflicts as string[] | undefined) ?? [],
        });
      else {
        mergedFocus.owe();
        router.refresh();
      }
    });
  return (
    <section
      aria-label="Merge"
      className="mb-8 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0 text-sm">
          {merged ? (
            <div role="status" ref={mergedFocus.ref} tabIndex={-1} className="rounded-sm">
              Merged as{" "}
              <code
                className={
                  "rounded bg-emerald-50 px-1.5 py-0.5 font-mono text-emerald-800 " +
                  "dark:bg-emerald-950 dark:text-emerald-300"
                }
                title={merged.commit}
              >
                {merged.commit.slice(0, 12)}
              </code>{" "}
              into <BaseBranch base={base} />
              {merged.by ? ` by ${merged.by}` : ""}, <TimeAgo date={merged.at} />
              <details className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                <summary className="cursor-pointer">Full commit</summary>
                <code className="font-mono break-all select-all">{merged.commit}</code>
              </details>
            </div>
          ) : (
            <p className="text-zinc-600 dark:text-zinc-400">
              Not merged into <BaseBranch base={base} /> yet.
            </p>
          )}
        </div>
        {merge && !confirming.isAsking ? (
          <Button
            ref={confirming.askerRef}
            variant={merged ? "secondary" : "primary"}
            disabled={isPending || refusedInAdvance !== null}
            aria-describedby={refusedInAdvance ? "merge-refused-in-advance" : undefined}
            onClick={confirming.ask}
          >
            {isPending ? <Spinner /> : null}
            Merge
          </Button>
        ) : null}
      </div>
      {merge && confirming.isAsking ? (
        <ConfirmStep
          className="mt-3 [overflow-wrap:anywhere]"
          question="Merge this task?"
          confirmLabel="Yes, merge and push"
          keepLabel="Keep it unmerged"
          variant="primary"
          onConfirm={() => {
            confirming.leave();
            runMerge(merge);
          }}
          onKeep={confirming.leave}
        >
          <WhatMergeDoes {...what} />
        </ConfirmStep>
      ) : null}
      {merge && refusedInAdvance ? (
        <p
          id="merge-refused-in-advance"
          className="mt-2 text-sm [overflow-wrap:anywhere] text-zinc-600 dark:text-zinc-400"
        >
          Cannot merge: {refusedInAdvance}
        </p>
      ) : null}
      {refusal ? (
        // git's words carry unbroken refs (<commit>:refs/heads/main) and paths: they wrap anywhere on a phone.
        <div role="alert" className="mt-2 text-sm [overflow-wrap:anywhere] text-rose-700 dark:text-rose-300">
          <p>Merge refused: {refusal.message}</p>
          {refusal.conflicts.length > 0 ? (
            <ul className="mt-1 list-disc pl-5 font-mono text-xs">
              {refusal.conflicts.map((file) => (
                <li key={file}>{file}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {autoMergeError && !refusal ? (
        <p className="mt-2 text-sm [overflow-wrap:anywhere] text-amber-800 dark:text-amber-300">{autoMergeError}</p>
      ) : null}
    </section>
  );
}
