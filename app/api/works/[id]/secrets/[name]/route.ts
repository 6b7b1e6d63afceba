import { apiRoute } from "@/lib/api/handler";
import { removeSecret, setSecret } from "@/lib/services/secrets";

export const dynamic = "force-dynamic";

export const PUT = apiRoute<{ id: string; name: string }>(async ({ actor, params, body }) => {
  const result = await setSecret(actor, params.id, params.name, await body());
  return { status: result.created ? 201 : 200, json: result };
});

export const DELETE = apiRoute<{ id: string; name: string }>(async ({ actor, params }) => {
  await removeSecret(actor, params.id, params.name);
  return { json: { deleted: true } };
});
