"use client";
// Landing a task: "Merged as <commit>" once merged (the full commit one click away), the last auto-merge
// failure, and the Merge button for engineers — disabled with the reason when the merge would be refused
// anyway, and answering with the refusal (a conflict lists its files) when git or the remote refuses.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { Button } from "../ui/button";
import { Spinner } from "../ui/icons";
import { TimeAgo } from "../ui/time-ago";

type Props = {
  merged: { commit: string; at: string; by: string | null } | null;
  autoMergeError: string | null;
  // null when the actor may not merge (the button is not shown).
  merge: (() => Promise<ActionResult<{ commit: string; base: string }>>) | null;
  refusedInAdvance: string | null;
  // The Work's base branch; null: the repository's HEAD branch, named as such (not as a branch called so).
  base: string | null;
};

function BaseBranch({ base }: { base: string | null }) {
  return base ? <code className="font-mono">{base}</code> : <>the repository's HEAD branch</>;
}

export function MergePanel({ merged, autoMergeError, merge, refusedInAdvance, base }: Props) {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  const [refusal, setRefusal] = useState<{ message: string; conflicts: string[] } | null>(null);
  if (!merged && !autoMergeError && !merge) return null;
  return (
    <section
      aria-label="Merge"
      className="mb-8 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0 text-sm">
          {merged ? (
            <div role="status">
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
        {merge ? (
          <Button
            variant={merged ? "secondary" : "primary"}
            disabled={isPending || refusedInAdvance !== null}
            aria-describedby={refusedInAdvance ? "merge-refused-in-advance" : undefined}
            onClick={() =>
              startTransition(async () => {
                setRefusal(null);
                const result = await merge();
                if (result.error)
                  setRefusal({
                    message: result.error.message,
                    conflicts: (result.error.details?.conflicts as string[] | undefined) ?? [],
                  });
                else router.refresh();
              })
            }
          >
            {isPending ? <Spinner /> : null}
            Merge
          </Button>
        ) : null}
      </div>
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
