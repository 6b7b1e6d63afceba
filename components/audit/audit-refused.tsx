import type { AuditRefusal } from "@/lib/services/audit";
import { aRole } from "@/lib/auth/roles";
import { NotFoundPanel } from "@/components/ui/page-parts";
import { NoSuchWork } from "@/components/works/no-such-work";

// What the audit page says to a reader it is not for (the answer is a 404, as for any page not theirs: proxy.ts).
export function AuditRefused({ refusal }: { refusal: AuditRefusal }) {
  if (refusal.kind === "no-work") return <NoSuchWork />;
  if (refusal.kind === "below-lead")
    return (
      <NotFoundPanel
        title="Only a lead may read this Work's audit trail"
        text={
          `You are ${aRole(refusal.role)} of ${refusal.work.name}. ` +
          "Its leads and the admins may read its audit trail."
        }
        href={`/works/${refusal.work.id}`}
        linkLabel={`Back to ${refusal.work.name}`}
      />
    );
  return (
    <NotFoundPanel
      title="Only an admin may read the whole audit trail"
      text="A lead may read their Work's at /audit?workId=…: the Audit button on the Work's page opens it."
      href="/works"
      linkLabel="See your Works"
    />
  );
}
