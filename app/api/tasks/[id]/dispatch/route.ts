import { apiRoute } from "@/lib/api/handler";
import { dispatchTask } from "@/lib/services/runs";

export const dynamic = "force-dynamic";

// 202 at once: the run executes in the background.
export const POST = apiRoute<{ id: string }>(async ({ actor, params }) => {
  const run = await dispatchTask(actor, params.id);
  return { status: 202, json: { runId: run.id, number: run.number } };
});
