"use client";
// The decision a partial run raises: accept it as it stands, grant more attempts, or reject it. Accept and
// reject end the run, so each asks for a confirmation with an optional reason (kept with the decision).
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { ActionResult } from "@/lib/actions/safe-action";
import { plural, shortCommit } from "@/lib/format";
import { queryKeys } from "@/lib/query-keys";
import { Button } from "../ui/button";
import { InlineError } from "../ui/inline-error";
import { DispatchButton } from "./dispatch-button";

type Decision = { choice: string; attempts?: number; reason?: string; stage?: string };

type Props = {
  runId: string;
  runNumber: number;
  bestAttempt: number | null;
  bestCommit: string | null;
  // The required checks that were not green in the last attempt: what the decision is about.
  redChecks: { name: string; verdict: string }[];
  frozenCount: number;
  // Set when the task's checks changed since this run was dispatched: a new run would run those.
  dispatchCurrent: (() => Promise<ActionResult<{ runId: string; number: number }>>) | null;
  decide: (decision: Decision) => Promise<ActionResult<{ ending: string | null; status: string }>>;
  // A stuck stage of a lane: it can also be skipped (unless it is the last) or sent back to an earlier one.
  stage?: { id: string; next: string | null; earlier: { id: string; name: string }[] } | null;
};

const ENDING_CHOICES = {
  accept: { title: "as it stands", confirm: "Confirm: accept as it stands" },
  reject: { title: "", confirm: "Confirm: reject" },
} as const;

export function DecisionPanel(props: Props) {
  const { runId, runNumber, bestAttempt, bestCommit, redChecks, frozenCount, dispatchCurrent, decide } = props;
  const router = useRouter();
  const queryClient = useQueryClient();
  const [attempts, setAttempts] = useState(1);
  const [backTo, setBackTo] = useState(props.stage?.earlier.at(-1)?.id ?? "");
  const [confirming, setConfirming] = useState<"accept" | "reject" | null>(null);
  const [why, setWhy] = useState("");
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const answer = (decision: Decision) =>
    startTransition(async () => {
      setError(null);
      const result = await decide(decision);
      if (result.error) return setError(result.error.message);
      await queryClient.invalidateQueries({ queryKey: queryKeys.run(runId), exact: true });
      router.refresh();
    });
  const confirmLabel = confirming === "accept" ? `Accept run #${runNumber} as it stands` : `Reject run #${runNumber}`;
  return (
    <section
      aria-labelledby="decision-title"
      className={
        "mb-8 rounded-lg border border-amber-300 bg-amber-50 p-4 shadow-sm " +
        "dark:border-amber-700/60 dark:bg-amber-950/40"
      }
    >
      <h2 id="decision-title" className="font-semibold text-amber-950 dark:text-amber-100">
        Decision needed
      </h2>
      <p className="mt-1 text-sm break-words text-amber-900 dark:text-amber-200">
        {/* Why the run stopped is said once, under the run's title: here, what there is to decide on. */}
        Best attempt: {bestAttempt ?? "—"}
        {bestCommit ? (
          <>
            {" "}
            at <code className="font-mono">{shortCommit(bestCommit)}</code>
          </>
        ) : null}
        .
      </p>
      {redChecks.length > 0 ? (
        <p className="mt-1 text-sm break-words text-amber-900 dark:text-amber-200" data-testid="decision-red">
          Red: {redChecks.map((c) => `${c.name} (${c.verdict})`).join(", ")}
        </p>
      ) : null}
      <p className="mt-1 text-sm text-amber-900 dark:text-amber-200">
        {dispatchCurrent
          ? `The task's checks changed since this run was dispatched: more attempts re-run this run's ` +
            `${plural(frozenCount, "frozen check")}, not the task's current ones.`
          : `More attempts re-run the same ${plural(frozenCount, "check")}.`}
      </p>
      {confirming ? (
        <fieldset
          aria-label={confirmLabel}
          className={
            "mt-3 space-y-2 rounded-md border border-amber-300 bg-white p-3 " +
            "dark:border-amber-700/60 dark:bg-zinc-900"
          }
        >
          <legend className="sr-only">{confirmLabel}</legend>
          <p className="text-sm font-medium">{confirmLabel}?</p>
          <label htmlFor="decision-reason" className="block text-sm font-medium">
            Reason (optional)
          </label>
          <textarea
            id="decision-reason"
            value={why}
            maxLength={1000}
            rows={2}
            onChange={(e) => setWhy(e.target.value)}
            className={
              "block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm " +
              "dark:border-zinc-700 dark:bg-zinc-950"
            }
          />
          <div className="flex flex-wrap gap-2">
            <Button
              variant={confirming === "accept" ? "success" : "danger"}
              disabled={isPending}
              onClick={() => answer({ choice: confirming, ...(why.trim() ? { reason: why.trim() } : {}) })}
            >
              {ENDING_CHOICES[confirming].confirm}
            </Button>
            <Button variant="ghost" disabled={isPending} onClick={() => setConfirming(null)}>
              Cancel
            </Button>
          </div>
        </fieldset>
      ) : (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <Button variant="success" disabled={isPending} onClick={() => setConfirming("accept")}>
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
              className={
                "rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm " +
                "dark:border-zinc-700 dark:bg-zinc-900"
              }
            >
              {[1, 2, 3, 4, 5].map((n) => (
                <option key={n} value={n}>
                  +{n}
                </option>
              ))}
            </select>
          </span>
          <Button variant="danger" disabled={isPending} onClick={() => setConfirming("reject")}>
            Reject
          </Button>
          {props.stage?.next ? (
            <Button variant="secondary" disabled={isPending} onClick={() => answer({ choice: "skip-stage" })}>
              Skip stage {props.stage.id}
            </Button>
          ) : null}
          {props.stage?.earlier.length ? (
            <span className="inline-flex items-center gap-1.5">
              <Button
                variant="secondary"
                disabled={isPending}
                onClick={() => answer({ choice: "send-back", stage: backTo })}
              >
                Send back
              </Button>
              <label className="sr-only" htmlFor="send-back-stage">
                Stage to send it back to
              </label>
              <select
                id="send-back-stage"
                value={backTo}
                onChange={(e) => setBackTo(e.target.value)}
                className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
              >
                {props.stage.earlier.map((s) => (
                  <option key={s.id} value={s.id}>
                    to {s.name}
                  </option>
                ))}
              </select>
            </span>
          ) : null}
          {dispatchCurrent ? (
            <DispatchButton dispatch={dispatchCurrent} label="Dispatch a new run on the current checks" />
          ) : null}
        </div>
      )}
      <div className="mt-2">
        <InlineError message={error} />
      </div>
    </section>
  );
}
