import { apiRoute } from "@/lib/api/handler";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

// Any path under /api that no route serves (e.g. /api/runs/%2e%2e/cancel, which resolves to /api/cancel):
// a JSON 404, where Next rendered its not-found page, and a POST to it failed with a 500.
const unknown = apiRoute<{ path: string[] }>(
  async ({ request }) => {
    throw new AppError("not_found", `no API route ${request.method} ${new URL(request.url).pathname}`);
  },
  { isPublic: true },
);

export { unknown as DELETE, unknown as GET, unknown as PATCH, unknown as POST, unknown as PUT };
