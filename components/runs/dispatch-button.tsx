"use client";
// Dispatch: freezes the task's effective checks into a new run and opens it.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { useQuery } from "@tanstack/react-query";
import type { RunJson } from "@/lib/api/run-json";
import { fetchJson, queryKeys } from "@/lib/query-keys";
import type { ActionResult } from "@/lib/actions/safe-action";
import { Button } from "../ui/button";
import { PlayIcon, Spinner } from "../ui/icons";
import { InlineError } from "../ui/inline-error";

export function DispatchButton({
  dispatch,
  label = "Dispatch",
  busyWith = null,
}: {
  dispatch: () => Promise<ActionResult<{ runId: string; number: number }>>;
  label?: string;
  // The task's run still in progress (queued, running or waiting for a fix): one run at a time, so the
  // button waits for it, saying which.
  busyWith?: { id: string; number: number; state: string } | null;
}) {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  // The run it waits for, followed (a run waiting for a fix is not polled elsewhere: a cancel from another
  // page or the API ends it unseen): its end brings the button back, and the page with it.
  const followed = useQuery({
    queryKey: queryKeys.run(busyWith?.id ?? ""),
    queryFn: () => fetchJson<RunJson>(`/api/runs/${busyWith!.id}`),
    enabled: busyWith !== null,
    refetchInterval: (q) => (q.state.data?.status === "finished" ? false : 3000),
  });
  const hasEnded = followed.data?.status === "finished";
  useEffect(() => {
    if (hasEnded) router.refresh();
  }, [hasEnded, router]);
  const waitsFor = hasEnded ? null : busyWith;
  return (
    <div className="flex flex-col items-end gap-2">
      {waitsFor ? (
        <p id="dispatch-busy" className="max-w-64 text-right text-xs text-zinc-600 dark:text-zinc-400">
          <Link className="font-medium underline" href={`/runs/${waitsFor.id}`}>
            Run #{waitsFor.number}
          </Link>{" "}
          is {waitsFor.state}: one run at a time.
        </p>
      ) : null}
      <Button
        variant="primary"
        disabled={isPending || waitsFor !== null}
        aria-describedby={waitsFor ? "dispatch-busy" : undefined}
        onClick={() =>
          startTransition(async () => {
            setError(null);
            const result = await dispatch();
            if (result.error) setError(result.error.message);
            else router.push(`/runs/${result.data.runId}`);
          })
        }
      >
        {isPending ? <Spinner /> : <PlayIcon />}
        {label}
      </Button>
      <InlineError message={error} />
    </div>
  );
}
