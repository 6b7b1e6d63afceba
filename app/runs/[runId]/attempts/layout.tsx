import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { readRun } from "@/lib/services/runs";

// An attempt's pages say "No such run" when the run is not there: read here, above the not-found page of
// attempts (./not-found.tsx), whose layout ([n]/layout.tsx) says "No such attempt" for a run that is.
export default async function RunAttemptsLayout({
  params,
  children,
}: {
  params: Promise<{ runId: string }>;
  children: React.ReactNode;
}) {
  await orNotFound(readRun(await getPageActor(), (await params).runId));
  return <>{children}</>;
}
