import type { Metadata } from "next";
import Link from "next/link";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { readWork } from "@/lib/services/works";
import { probeRepository } from "@/lib/services/work-repositories";
import { readAudit } from "@/lib/services/audit";
import { listSecrets } from "@/lib/services/secrets";
import { standingAllows, standingOn } from "@/lib/services/access";
import { WorkSettingsEditor } from "@/components/editors/work-settings-editor";
import { WorkAssetsPanel } from "@/components/editors/work-assets-panel";
import { presentAsset } from "@/lib/api/present";
import { listWorkAssets } from "@/lib/services/assets";
import { ChangeHistory } from "@/components/editors/change-history";
import { Breadcrumbs, PageHeader, Section } from "@/components/ui/page-parts";
import { saveWorkSettingsAction } from "./actions";

export const metadata: Metadata = { title: "Checks and policy" };

export default async function WorkSettingsPage({
  params,
  searchParams,
}: {
  params: Promise<{ workId: string }>;
  searchParams: Promise<{ repo?: string }>;
}) {
  const { workId } = await params;
  const actor = await getPageActor();
  const work = await orNotFound(readWork(actor, workId));
  const isLead = standingAllows(await standingOn(actor, workId), "lead");
  // Just created with a repository the server could not reach: probed again, so the warning is the server's.
  const unreachable = (await searchParams).repo === "unreachable" ? await probeRepository(work.repoUrl) : null;
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Works", href: "/works" },
          { label: work.name, href: `/works/${work.id}` },
          { label: "Checks and policy" },
        ]}
      />
      <PageHeader
        title="Checks and policy"
        meta={
          <>
            How {work.name}&apos;s runs are judged. Saving records who changed what; runs already dispatched keep what
            they froze.
          </>
        }
      />
      {unreachable ? (
        <p
          role="alert"
          className="mb-4 rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950/40 dark:text-amber-100"
        >
          The Work is saved, but {unreachable}. Its runs will end inconclusive until the server can reach it: check the
          address, or ask an admin to change it.
        </p>
      ) : null}
      {isLead ? (
        <>
          <WorkSettingsEditor
            initial={{
              checkDefaults: work.checkDefaults,
              checksPolicy: work.checksPolicy,
              maxGateAttempts: work.maxGateAttempts,
              agentCommand: work.agentCommand,
              agentEnvPassthrough: work.agentEnvPassthrough,
              budgetSec: work.budgetSec,
              failFast: work.failFast,
              strictEvaluation: work.strictEvaluation,
              testPatterns: work.testPatterns,
              requireTests: work.requireTests,
              protectedPaths: work.protectedPaths,
              vacuousPolicy: work.vacuousPolicy,
              checkSources: work.checkSources,
              mergePolicy: work.mergePolicy,
              resultsDir: work.resultsDir,
              profile: work.profile,
              reviewCommand: work.reviewCommand,
              mutationCommand: work.mutationCommand,
              mutationReport: work.mutationReport,
              redTeamCommand: work.redTeamCommand,
              redTeamTestCommand: work.redTeamTestCommand,
              version: work.version,
            }}
            secretNames={(await listSecrets(actor, workId)).map((s) => s.name)}
            save={saveWorkSettingsAction.bind(null, work.id)}
          />
          <div className="mt-10">
            <Section
              id="assets"
              title="Assets"
              description="Files for the checks (expected outputs, fixtures): each run's checks read them, read-only, in {{assets_dir}} and $GATEHOUSE_ASSETS_DIR. At most 1 MB each, 10 MB and 50 files per Work."
            >
              <WorkAssetsPanel
                workId={work.id}
                initial={(await listWorkAssets(actor, workId)).map((a) => ({
                  ...presentAsset(a),
                  createdAt: a.createdAt.toISOString(),
                }))}
              />
            </Section>
          </div>
          <div className="mt-10">
            <Section id="history" title="History">
              <ChangeHistory events={(await readAudit(actor, { workId, actionPrefix: "work." })).events} />
            </Section>
          </div>
        </>
      ) : (
        <p className="rounded-lg border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-900">
          Only a lead of {work.name} edits its checks and policy.{" "}
          <Link className="underline" href={`/works/${work.id}`}>
            Back to the Work
          </Link>
        </p>
      )}
    </>
  );
}
