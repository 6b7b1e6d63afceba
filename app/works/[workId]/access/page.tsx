import type { Metadata } from "next";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { listSecrets } from "@/lib/services/secrets";
import { listWorkMembers } from "@/lib/services/users";
import { readWork } from "@/lib/services/works";
import { ROLE_CAN, ROLES } from "@/lib/auth/roles";
import { formatDateTime } from "@/lib/format";
import { ActionForm, Field, inputClass } from "@/components/ui/action-form";
import { buttonClass } from "@/components/ui/button";
import { Breadcrumbs, EmptyState, PageHeader, Pill, rowListClass, Section } from "@/components/ui/page-parts";
import { deleteSecretAction, removeMemberAction, setRoleAction, setSecretAction } from "./actions";

export const metadata: Metadata = { title: "Access" };

export default async function AccessPage({ params }: { params: Promise<{ workId: string }> }) {
  const { workId } = await params;
  const actor = await getPageActor();
  const work = await orNotFound(readWork(actor, workId));
  const [members, secrets] = await Promise.all([
    listWorkMembers(actor, workId),
    orNotFound(listSecrets(actor, workId)),
  ]);
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Works", href: "/works" },
          { label: work.name, href: `/works/${work.id}` },
          { label: "Access" },
        ]}
      />
      <PageHeader title="Access" meta={<>Who may do what on {work.name}, and the secrets its checks may be given.</>} />
      <Section title="People" description={ROLES.map((r) => `${r}: ${ROLE_CAN[r]}`).join(" · ")}>
        <ActionForm
          action={setRoleAction.bind(null, work.id)}
          submitLabel="Give role"
          ariaLabel="Give a role"
          className="mb-4"
          successText="{email} is now {role}."
        >
          <Field label="Email">
            <input name="email" type="email" className={`${inputClass} w-64`} required />
          </Field>
          <Field label="Role">
            <select name="role" defaultValue="engineer" className={inputClass}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </Field>
        </ActionForm>
        {members.length === 0 ? (
          <EmptyState title="Nobody has a role here yet">
            Admins see every Work; give others a role to let them in.
          </EmptyState>
        ) : (
          <ul aria-label="Members" className={rowListClass}>
            {members.map((m) => (
              <li key={m.userId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
                <span>
                  <span className="font-medium">{m.name}</span>{" "}
                  <span className="text-zinc-500 dark:text-zinc-400">{m.email}</span> <Pill tone="sky">{m.role}</Pill>
                </span>
                <form action={removeMemberAction.bind(null, work.id, m.userId)}>
                  <button type="submit" className={buttonClass("danger", "sm")} aria-label={`Remove ${m.email}`}>
                    Remove
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section
        id="secrets"
        title="Secrets"
        description={
          "Values are encrypted at rest and never shown again. A check sees a secret only when " +
          "it lists the name in envPassthrough; values are replaced by *** in every " +
          "log, tail, message and brief."
        }
      >
        <ActionForm
          action={setSecretAction.bind(null, work.id)}
          submitLabel="Save secret"
          ariaLabel="Set a secret"
          className="mb-4"
          successText="Saved {name}."
        >
          <Field label="Name">
            <input name="name" placeholder="NPM_TOKEN" className={`${inputClass} w-56 font-mono`} required />
          </Field>
          <Field label="Value">
            <input name="value" type="password" autoComplete="off" className={`${inputClass} w-72`} required />
          </Field>
        </ActionForm>
        {secrets.length === 0 ? (
          <EmptyState title="No secrets" />
        ) : (
          <ul aria-label="Secrets" className={rowListClass}>
            {secrets.map((s) => (
              <li key={s.name} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
                <span>
                  <code className="font-mono font-medium">{s.name}</code>{" "}
                  <span className="text-xs text-zinc-500 dark:text-zinc-400">set {formatDateTime(s.updatedAt)}</span>
                </span>
                <form action={deleteSecretAction.bind(null, work.id, s.name)}>
                  <button type="submit" className={buttonClass("danger", "sm")} aria-label={`Delete ${s.name}`}>
                    Delete
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
