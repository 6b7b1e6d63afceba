import { apiRoute } from "@/lib/api/handler";
import { startAttemptAtCommit } from "@/lib/services/pushed-attempts";

export const dynamic = "force-dynamic";

// {commit, report?} → 202: the next attempt of the task's waiting run at that commit, or a new run.
export const POST = apiRoute<{ id: string }>(async ({ actor, params, body }) => {
  const { run, n, isNewRun } = await startAttemptAtCommit(actor, params.id, await body());
  return { status: 202, json: { runId: run.id, number: run.number, attempt: n, isNewRun } };
});
