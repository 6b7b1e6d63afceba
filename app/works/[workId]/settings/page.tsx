import type { Metadata } from "next";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { probeRepository } from "@/lib/services/work-repositories";
import { readWork } from "@/lib/services/works";

export const metadata: Metadata = { title: "Checks and policy" };

// The settings page opens on its first section, the checks, which the layout's editor shows. A Work just
// created with a repository the server could not reach lands here: probed again, so the warning is the
// server's own.
export default async function WorkSettingsPage({
  params,
  searchParams,
}: {
  params: Promise<{ workId: string }>;
  searchParams: Promise<{ repo?: string }>;
}) {
  if ((await searchParams).repo !== "unreachable") return null;
  const { workId } = await params;
  const work = await orNotFound(readWork(await getPageActor(), workId));
  const unreachable = await probeRepository(work.repoUrl);
  if (!unreachable) return null;
  return (
    <p
      role="alert"
      className={
        "mb-4 rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 " +
        "dark:border-amber-600 dark:bg-amber-950/40 dark:text-amber-100"
      }
    >
      The Work is saved, but {unreachable}. Its runs will end inconclusive until the server can reach it: check the
      address, or ask an admin to change it.
    </p>
  );
}
