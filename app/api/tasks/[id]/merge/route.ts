import { apiRoute } from "@/lib/api/handler";
import { mergeTask } from "@/lib/services/merge";

export const dynamic = "force-dynamic";

// 200 {commit, base, mergedAt, mergedBy} once pushed; 409 {error: {message, refusal, conflicts?}} when refused.
export const POST = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: await mergeTask(actor, params.id),
}));
