"use client";
// Dispatch: freezes the task's effective checks into a new run and opens it.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { Button } from "../ui/button";
import { PlayIcon, Spinner } from "../ui/icons";
import { InlineError } from "../ui/inline-error";

export function DispatchButton({
  dispatch,
  label = "Dispatch",
}: {
  dispatch: () => Promise<ActionResult<{ runId: string; number: number }>>;
  label?: string;
}) {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col items-end gap-2">
      <Button
        variant="primary"
        disabled={isPending}
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
