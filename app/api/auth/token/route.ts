import { apiRoute } from "@/lib/api/handler";
import { createTokenWithPassword } from "@/lib/services/auth";

export const dynamic = "force-dynamic";

function clientAddress(request: Request): string {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || request.headers.get("x-real-ip") || "direct";
}

// An API token for a CLI or an agent, in exchange for an email and password (slowed like sign-in).
export const POST = apiRoute(
  async ({ request, body }) => {
    const { token, record } = await createTokenWithPassword(await body(), clientAddress(request));
    return { status: 201, json: { token, id: record.id, name: record.name } };
  },
  { isPublic: true },
);
