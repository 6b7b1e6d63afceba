import { apiRoute } from "@/lib/api/handler";
import { clientAddressFrom } from "@/lib/auth/client-address";
import { createTokenWithPassword } from "@/lib/services/auth";

export const dynamic = "force-dynamic";

// An API token for a CLI or an agent, in exchange for an email and password (slowed like sign-in).
export const POST = apiRoute(
  async ({ request, body }) => {
    const { token, record } = await createTokenWithPassword(await body(), clientAddressFrom(request.headers));
    return { status: 201, json: { token, id: record.id, name: record.name } };
  },
  { isPublic: true },
);
