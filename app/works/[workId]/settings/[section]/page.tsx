import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getPageActor } from "@/lib/auth/page-actor";
import { readAudit } from "@/lib/services/audit";
import { listWorkAssets } from "@/lib/services/assets";
import { standingAllows, standingOn } from "@/lib/services/access";
import { presentAsset } from "@/lib/api/present";
import { ChangeHistory } from "@/components/editors/change-history";
import { isServerSection, isSettingsPageSection, sectionLabel } from "@/components/editors/settings-sections";
import { PeopleSection, SecretsSection } from "@/components/works/access-sections";
import { listSecrets } from "@/lib/services/secrets";
import { listWorkMembers } from "@/lib/services/users";
import { deleteSecretAction, removeMemberAction, saveGeneralAction, setRoleAction, setSecretAction } from "./actions";
import { WorkAssetsPanel } from "@/components/editors/work-assets-panel";
import { Section } from "@/components/ui/page-parts";
import { WorkGeneralSection } from "@/components/works/work-general-section";
import { orNotFound } from "@/lib/pages/or-not-found";
import { readPageWork } from "@/lib/pages/page-reads";
import { canChangeWorkIdentity } from "@/lib/services/works";

type Params = { params: Promise<{ workId: string; section: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { workId, section } = await params;
  return { title: `${sectionLabel(section)} · ${(await orNotFound(readPageWork(workId))).name}` };
}

// One section of the Work's settings. The editor's sections are drawn by the layout (which keeps the working
// copy); this page draws those the server renders: the Work's name and repository (which everyone who sees
// the Work may read), the secrets, the people, the assets and the history.
export default async function WorkSettingsSectionPage({ params }: Params) {
  const { workId, section } = await params;
  if (!isSettingsPageSection(section)) notFound();
  if (!isServerSection(section)) return null;
  const actor = await getPageActor();
  if (section === "general") {
    const work = await orNotFound(readPageWork(workId));
    // Only these reach the browser (the form is a client component).
    const { name, repoUrl, baseBranch, version } = work;
    return (
      <WorkGeneralSection
        work={{ name, repoUrl, baseBranch, version }}
        save={canChangeWorkIdentity(actor) ? saveGeneralAction.bind(null, work.id) : null}
      />
    );
  }
  if (!standingAllows(await standingOn(actor, workId), "lead")) return null;
  if (section === "secrets")
    return (
      <SecretsSection
        secrets={await listSecrets(actor, workId)}
        setSecret={setSecretAction.bind(null, workId)}
        deleteSecret={deleteSecretAction.bind(null, workId)}
      />
    );
  if (section === "access")
    return (
      <PeopleSection
        members={await listWorkMembers(actor, workId)}
        setRole={setRoleAction.bind(null, workId)}
        removeMember={removeMemberAction.bind(null, workId)}
      />
    );
  if (section === "assets")
    return (
      <Section
        id="assets"
        title="Assets"
        description={
          "Files for the checks (expected outputs, fixtures): each run's checks read them, " +
          "read-only, in {{assets_dir}} and $GATEHOUSE_ASSETS_DIR. " +
          "At most 1 MB each, 10 MB and 50 files per Work."
        }
      >
        <WorkAssetsPanel
          workId={workId}
          initial={(await listWorkAssets(actor, workId)).map((a) => ({
            ...presentAsset(a),
            createdAt: a.createdAt.toISOString(),
          }))}
        />
      </Section>
    );
  return (
    <Section id="history" title="History">
      <ChangeHistory events={(await readAudit(actor, { workId, actionPrefix: "work." })).events} />
    </Section>
  );
}
