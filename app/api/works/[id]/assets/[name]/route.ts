import { apiRoute } from "@/lib/api/handler";
import { removeAsset } from "@/lib/services/assets";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute<{ id: string; name: string }>(async ({ actor, params }) => {
  await removeAsset(actor, params.id, params.name);
  return { json: { deleted: true } };
});
