import Link from "next/link";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { readPageWork } from "@/lib/pages/page-reads";
import { listSecrets } from "@/lib/services/secrets";
import { standingAllows, standingOn } from "@/lib/services/access";
import { pickSettings } from "@/lib/gates/work-settings";
import { dataDir } from "@/lib/config/database-url";
import { installDir } from "@/lib/config/install-dir";
import { WorkSettingsEditor } from "@/components/editors/work-settings-editor";
import { Breadcrumbs, PageHeader } from "@/components/ui/page-parts";
import { saveWorkSettingsAction } from "./actions";

// The Work's settings: the editor (and its working copy) lives here, so moving between the sections — each a
// page of its own URL — keeps what was typed in the others.
export default async function WorkSettingsLayout({
  params,
  children,
}: {
  params: Promise<{ workId: string }>;
  children: React.ReactNode;
}) {
  const { workId } = await params;
  const actor = await getPageActor();
  const work = await orNotFound(readPageWork(workId));
  const isLead = standingAllows(await standingOn(actor, workId), "lead");
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Works", href: "/works" },
          { label: work.name, href: `/works/${work.id}` },
          { label: "Settings" },
        ]}
      />
      <PageHeader
        title="Settings"
        meta={
          <>
            How {work.name} is set up and how its runs are judged. Each section saves on its own and records who changed
            what; runs already dispatched keep what they froze.
          </>
        }
      />
      {isLead ? (
        <WorkSettingsEditor
          workId={work.id}
          initial={{ ...pickSettings(work), version: work.version }}
          secretNames={(await listSecrets(actor, workId)).map((s) => s.name)}
          platformDirs={{ dataDir: dataDir(), installDir: installDir() }}
          save={saveWorkSettingsAction.bind(null, work.id)}
        >
          {children}
        </WorkSettingsEditor>
      ) : (
        <>
          <p
            className={
              "mb-6 rounded-lg border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-900"
            }
          >
            Only a lead of {work.name} edits its checks and policy.{" "}
            <Link className="underline" href={`/works/${work.id}/settings/general`}>
              Its name and repository
            </Link>{" "}
            ·{" "}
            <Link className="underline" href={`/works/${work.id}`}>
              Back to the Work
            </Link>
          </p>
          {/* What the sections' pages show everyone who sees the Work (General); the others draw nothing. */}
          {children}
        </>
      )}
    </>
  );
}
