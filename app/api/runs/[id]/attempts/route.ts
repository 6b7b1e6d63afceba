import { apiRoute } from "@/lib/api/handler";
import { startNextAttempt } from "@/lib/services/runs";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ id: string }>(async ({ actor, params }) => {
  const { run, n } = await startNextAttempt(actor, params.id);
  return { status: 202, json: { runId: run.id, attempt: n } };
});
