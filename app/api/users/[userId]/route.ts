import { apiRoute } from "@/lib/api/handler";
import { updateUserByAdmin } from "@/lib/services/users";

export const dynamic = "force-dynamic";

// Admins: {"admin"?: boolean, "disabled"?: boolean, "password"?: string} — at least one.
export const PATCH = apiRoute<{ userId: string }>(async ({ actor, params, body }) => ({
  json: await updateUserByAdmin(actor, params.userId, await body()),
}));
