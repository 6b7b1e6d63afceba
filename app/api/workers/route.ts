import { apiRoute } from "@/lib/api/handler";
import { listWorkers } from "@/lib/services/workers";

export const dynamic = "force-dynamic";

// The workers (admins): name, host, concurrency, state, heartbeat and the runs each holds now.
export const GET = apiRoute(async ({ actor }) => ({ json: { workers: await listWorkers(actor) } }));
