"use client";
// What a person can do with a run in progress: start the next attempt (when it waits for a fix), cancel.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { ActionResult } from "@/lib/actions/safe-action";
import { queryKeys } from "@/lib/query-keys";
import { Button } from "../ui/button";
import { RetryIcon, Spinner } from "../ui/icons";
import { InlineError } from "../ui/inline-error";
import { ConfirmStep, useConfirmStep } from "../ui/confirm-step";

type Props = {
  runId: string;
  nextAttempt: number | null;
  canCancel: boolean;
  startNext: () => Promise<ActionResult<{ n: number }>>;
  cancel: () => Promise<ActionResult<{ ending: string | null }>>;
};

export function RunActions({ runId, nextAttempt, canCancel, startNext, cancel }: Props) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  // A cancel ends the run's checks and agent at once: asked once more, as GitHub and Buildkite do.
  const confirming = useConfirmStep();
  const act = (fn: () => Promise<ActionResult<unknown>>) =>
    startTransition(async () => {
      setError(null);
      const result = await fn();
      if (result.error) setError(result.error.message);
      await queryClient.invalidateQueries({ queryKey: queryKeys.run(runId), exact: true });
      router.refresh();
    });
  if (nextAttempt === null && !canCancel) return null;
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex flex-wrap gap-2">
        {nextAttempt !== null ? (
          <Button variant="primary" disabled={isPending} onClick={() => act(startNext)}>
            {isPending ? <Spinner /> : <RetryIcon />}
            Run attempt {nextAttempt}
          </Button>
        ) : null}
        {canCancel && !confirming.isAsking ? (
          <Button ref={confirming.askerRef} variant="danger" disabled={isPending} onClick={confirming.ask}>
            Cancel run
          </Button>
        ) : null}
      </div>
      {canCancel && confirming.isAsking ? (
        <ConfirmStep
          className="justify-end"
          question="Cancel this run?"
          confirmLabel="Yes, cancel the run"
          keepLabel="Keep it running"
          isPending={isPending}
          onConfirm={() => {
            confirming.leave();
            act(cancel);
          }}
          onKeep={confirming.leave}
        >
          Its checks and agent are stopped now; the task can be dispatched again.
        </ConfirmStep>
      ) : null}
      <InlineError message={error} />
    </div>
  );
}
