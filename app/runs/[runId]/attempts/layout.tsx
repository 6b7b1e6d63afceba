import { orNotFound } from "@/lib/pages/or-not-found";
import { readPageRun } from "@/lib/pages/page-reads";

// An attempt's pages say "No such run" when the run is not there: read here, above the not-found page of
// attempts (./not-found.tsx), whose layout ([n]/layout.tsx) says "No such attempt" for a run that is. The
// read is the request's one (lib/pages/page-reads.ts): the attempt's layout and the page ask it again.
export default async function RunAttemptsLayout({
  params,
  children,
}: {
  params: Promise<{ runId: string }>;
  children: React.ReactNode;
}) {
  await orNotFound(readPageRun((await params).runId));
  return <>{children}</>;
}
