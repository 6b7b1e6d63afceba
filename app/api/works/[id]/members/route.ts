import { apiRoute } from "@/lib/api/handler";
import { listWorkMembers } from "@/lib/services/users";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: { members: await listWorkMembers(actor, params.id) },
}));
