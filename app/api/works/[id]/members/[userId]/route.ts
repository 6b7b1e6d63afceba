import { apiRoute } from "@/lib/api/handler";
import { removeMember, setMemberRole } from "@/lib/services/users";

export const dynamic = "force-dynamic";

// Admins and the Work's leads: {"role": "viewer" | "engineer" | "lead"}.
export const PUT = apiRoute<{ id: string; userId: string }>(async ({ actor, params, body }) => ({
  json: await setMemberRole(actor, params.id, params.userId, await body()),
}));

export const DELETE = apiRoute<{ id: string; userId: string }>(async ({ actor, params }) => {
  await removeMember(actor, params.id, params.userId);
  return { json: { removed: true } };
});
