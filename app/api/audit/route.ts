import { apiRoute } from "@/lib/api/handler";
import { readAudit } from "@/lib/services/audit";

export const dynamic = "force-dynamic";

// ?workId= (leads of that Work) or everything (admins); ?before=<ISO time> for the next page.
export const GET = apiRoute(async ({ actor, request }) => {
  const q = new URL(request.url).searchParams;
  const before = q.get("before");
  return { json: await readAudit(actor, { workId: q.get("workId") ?? undefined, before: before ? new Date(before) : undefined }) };
});
