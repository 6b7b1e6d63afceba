import { apiRoute } from "@/lib/api/handler";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => ({ json: { status: "ok" } }), { isPublic: true });
