import { apiRoute } from "@/lib/api/handler";
import { readBoard } from "@/lib/services/board";

export const dynamic = "force-dynamic";

// A column per stage of each lane, a card per task standing there.
export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({ json: await readBoard(actor, params.id) }));
