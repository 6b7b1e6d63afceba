import { apiRoute } from "@/lib/api/handler";
import { intQueryParam } from "@/lib/api/request-input";
import { loadTaskPage } from "@/lib/services/page-data";

export const dynamic = "force-dynamic";

// A task's runs, newest first, 20 a page; ?before=<run number> for the next page.
export const GET = apiRoute<{ id: string }>(async ({ actor, params, request }) => {
  const before = intQueryParam(new URL(request.url).searchParams, "before", { min: 1, max: 2 ** 31 - 1 });
  const { runs, hasMore } = await loadTaskPage(actor, params.id, before);
  return { json: { runs, nextBefore: hasMore ? runs[runs.length - 1].number : null } };
});
