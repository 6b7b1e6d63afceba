"use client";
// The decision a partial run raises: accept it as it stands, grant more attempts, or reject it.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { ActionResult } from "@/lib/actions/safe-action";
import { shortCommit } from "@/lib/format";
import { queryKeys } from "@/lib/query-keys";
import { Button } from "../ui/button";
import { InlineError } from "../ui/inline-error";

type Props = {
  runId: string;
  reason: string | null;
  bestAttempt: number | null;
  bestCommit: string | null;
  decide: (decision: {
    choice: string;
    attempts?: number;
  }) => Promise<ActionResult<{ ending: string | null; status: string }>>;
};

export function DecisionPanel({ runId, reason, bestAttempt, bestCommit, decide }: Props) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [attempts, setAttempts] = useState(1);
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const answer = (decision: { choice: string; attempts?: number }) =>
    startTransition(async () => {
      setError(null);
      const result = await decide(decision);
      if (result.error) return setError(result.error.message);
      await queryClient.invalidateQueries({ queryKey: queryKeys.run(runId), exact: true });
      router.refresh();
    });
  return (
    <section
      aria-labelledby="decision-title"
      className="mb-8 rounded-lg border border-amber-300 bg-amber-50 p-4 shadow-sm dark:border-amber-700/60 dark:bg-amber-950/40"
    >
      <h2 id="decision-title" className="font-semibold text-amber-950 dark:text-amber-100">
        Decision needed
      </h2>
      <p className="mt-1 text-sm text-amber-900 dark:text-amber-200">
        {(reason ?? "The gate is still red").replace(/\.?$/, ".")} Best attempt: {bestAttempt ?? "—"}
        {bestCommit ? (
          <>
            {" "}
            at <code className="font-mono">{shortCommit(bestCommit)}</code>
          </>
        ) : null}
        .
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Button variant="success" disabled={isPending} onClick={() => answer({ choice: "accept" })}>
          Accept as it stands
        </Button>
        <span className="inline-flex items-center gap-1.5">
          <Button
            variant="secondary"
            disabled={isPending}
            onClick={() => answer({ choice: "more-attempts", attempts })}
          >
            Grant more attempts
          </Button>
          <label className="sr-only" htmlFor="more-attempts">
            Attempts to grant
          </label>
          <select
            id="more-attempts"
            value={attempts}
            onChange={(e) => setAttempts(Number(e.target.value))}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          >
            {[1, 2, 3, 4, 5].map((n) => (
              <option key={n} value={n}>
                +{n}
              </option>
            ))}
          </select>
        </span>
        <Button variant="danger" disabled={isPending} onClick={() => answer({ choice: "reject" })}>
          Reject
        </Button>
      </div>
      <div className="mt-2">
        <InlineError message={error} />
      </div>
    </section>
  );
}
