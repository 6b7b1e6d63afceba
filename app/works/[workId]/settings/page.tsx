import type { Metadata } from "next";
import Link from "next/link";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { readWork } from "@/lib/services/works";
import { readAudit } from "@/lib/services/audit";
import { listSecrets } from "@/lib/services/secrets";
import { standingAllows, standingOn } from "@/lib/services/access";
import { WorkSettingsEditor } from "@/components/editors/work-settings-editor";
import { WorkAssetsPanel } from "@/components/editors/work-assets-panel";
import { presentAsset } from "@/lib/api/present";
import { listWorkAssets } from "@/lib/services/assets";
import { ChangeHistory } from "@/components/editors/change-history";
import { Breadcrumbs, PageHeader, Section } from "@/components/ui/page-parts";
import { pickSettings } from "@/lib/gates/work-settings";
import { saveWorkSettingsAction } from "./actions";

export const metadata: Metadata = { title: "Checks and policy" };

export default async function WorkSettingsPage({ params }: { params: Promise<{ workId: string }> }) {
  const { workId } = await params;
  const actor = await getPageActor();
  const work = await orNotFound(readWork(actor, workId));
  const isLead = standingAllows(await standingOn(actor, workId), "lead");
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
      {isLead ? (
        <>
          <WorkSettingsEditor
            initial={{ ...pickSettings(work), version: work.version }}
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
