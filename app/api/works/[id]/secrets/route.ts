import { apiRoute } from "@/lib/api/handler";
import { listSecrets } from "@/lib/services/secrets";

export const dynamic = "force-dynamic";

// Names only: values are never returned.
export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: { secrets: await listSecrets(actor, params.id) },
}));
