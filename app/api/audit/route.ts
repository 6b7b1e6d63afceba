import { apiRoute } from "@/lib/api/handler";
import { AppError } from "@/lib/errors";
import { readAudit } from "@/lib/services/audit";

export const dynamic = "force-dynamic";

// ?workId= (leads of that Work) or everything (admins); ?before=<ISO time> for the next page.
export const GET = apiRoute(async ({ actor, request }) => {
  const q = new URL(request.url).searchParams;
  const before = q.get("before") ? new Date(q.get("before")!) : undefined;
  if (before && Number.isNaN(before.getTime()))
    throw new AppError("validation", "before: must be an ISO 8601 time", [
      { path: "before", message: "must be an ISO 8601 time" },
    ]);
  return { json: await readAudit(actor, { workId: q.get("workId") ?? undefined, before }) };
});
