import { orNotFound } from "@/lib/pages/or-not-found";
import { readPageAttempt } from "@/lib/pages/page-reads";

// An attempt the run does not have ("9", "abc") is said by ../not-found.tsx; a check it does not have, by the
// log page's own not-found page below.
export default async function AttemptLayout({
  params,
  children,
}: {
  params: Promise<{ runId: string; n: string }>;
  children: React.ReactNode;
}) {
  const { runId, n } = await params;
  await orNotFound(readPageAttempt(runId, n));
  return <>{children}</>;
}
