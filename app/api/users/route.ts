import { apiRoute } from "@/lib/api/handler";
import { createUser, listAllUsers } from "@/lib/services/users";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async ({ actor }) => ({ json: { users: await listAllUsers(actor) } }));

export const POST = apiRoute(async ({ actor, body }) => ({ status: 201, json: await createUser(actor, await body()) }));
