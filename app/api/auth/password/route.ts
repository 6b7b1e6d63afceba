import { apiRoute } from "@/lib/api/handler";
import { clientAddressFrom } from "@/lib/auth/client-address";
import { readCookie } from "@/lib/auth/request-actor";
import { SESSION_COOKIE } from "@/lib/auth/tokens";
import { changeOwnPassword } from "@/lib/services/auth";

export const dynamic = "force-dynamic";

// One's own new password: {"currentPassword", "newPassword"}. Every other session of the person ends (the
// browser asking with its cookie stays signed in); API tokens keep working.
export const POST = apiRoute(async ({ actor, request, body }) => ({
  json: await changeOwnPassword(actor, await body(), {
    address: clientAddressFrom(request.headers),
    keepSessionToken: actor.via === "session" ? readCookie(request.headers.get("cookie"), SESSION_COOKIE) : null,
  }),
}));
