import type { Metadata } from "next";
import Link from "next/link";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { readPageWork } from "@/lib/pages/page-reads";
import { probeRepository } from "@/lib/services/work-repositories";
import { canChangeWorkIdentity } from "@/lib/services/works";
import { standingAllows, standingOn } from "@/lib/services/access";
import { landingWarning } from "@/lib/services/merge";
import { LandingWarning } from "@/components/works/landing-warning";

export async function generateMetadata({ params }: { params: Promise<{ workId: string }> }): Promise<Metadata> {
  return { title: `Settings · ${(await orNotFound(readPageWork((await params).workId))).name}` };
}

// The settings page opens on the checks, which the layout's editor shows. A Work just created with a
// repository the server could not reach, or whose base branch is checked out in it, lands here: probed
// again, so each warning is the server's own, with the way to the General section where the repository
// is changed (for whoever may change it).
export default async function WorkSettingsPage({
  params,
  searchParams,
}: {
  params: Promise<{ workId: string }>;
  searchParams: Promise<{ repo?: string }>;
}) {
  const { repo } = await searchParams;
  if (repo !== "unreachable" && repo !== "no-branch" && repo !== "checked-out") return null;
  const { workId } = await params;
  const actor = await getPageActor();
  const work = await orNotFound(readPageWork(workId));
  // The probes run git against the repository (ls-remote for up to 15 s): for the leads who land here after
  // saving the Work, not for any reader who types the address.
  if (!standingAllows(await standingOn(actor, work.id), "lead")) return null;
  const canChange = canChangeWorkIdentity(actor);
  const [probed, landing] = await Promise.all([
    repo === "unreachable" || repo === "no-branch" ? probeRepository(work.repoUrl, work.baseBranch) : null,
    landingWarning(work),
  ]);
  // What to change: the address when the repository cannot be reached, else the base branch.
  const what = probed?.path === "repoUrl" ? "the address" : "the base branch";
  return (
    <>
      {probed ? (
        <p
          role="alert"
          className={
            "mb-4 rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 " +
            "dark:border-amber-600 dark:bg-amber-950/40 dark:text-amber-100"
          }
        >
          The Work is saved, but {probed.message}
          {probed.path === "repoUrl" ? ". Its runs will end inconclusive until the server can reach it" : ""}:{" "}
          {canChange ? (
            <>
              check {what} and, if it is wrong, change it in{" "}
              <Link className="font-medium underline" href={`/works/${work.id}/settings/general`}>
                General
              </Link>
              .
            </>
          ) : (
            `check ${what}, or ask an admin to change it.`
          )}
        </p>
      ) : null}
      <LandingWarning message={landing} workId={work.id} canChangeRepository={canChange} />
    </>
  );
}
