// The Access and Secrets sections of a Work's settings (server-rendered): who may do what, and the secrets
// its checks may be given. The page passes the Server Actions, bound to the Work.
import { ROLE_CAN, ROLES } from "@/lib/auth/roles";
import { formatDateTime } from "@/lib/format";
import type { ActionResult } from "@/lib/actions/safe-action";
import { ActionForm, Field } from "../ui/action-form";
import { inputClass } from "../ui/input-classes";
import { ConfirmSubmit } from "../ui/confirm-submit";
import { RowActionForm } from "../ui/row-action-form";
import { EmptyState, Pill, rowListClass, Section } from "../ui/page-parts";

type FormAction<T> = (state: unknown, form: FormData) => Promise<ActionResult<T>>;

export function PeopleSection({
  members,
  setRole,
  removeMember,
}: {
  members: readonly { userId: string; name: string; email: string; role: string }[];
  setRole: FormAction<{ email: string; role: string }>;
  removeMember: (userId: string) => Promise<ActionResult<null>>;
}) {
  return (
    <Section id="access" title="People" description={ROLES.map((r) => `${r}: ${ROLE_CAN[r]}`).join(" · ")}>
      <ActionForm
        action={setRole}
        submitLabel="Give role"
        ariaLabel="Give a role"
        className="mb-4"
        successText="{email} is now {role}."
      >
        <Field label="Email" name="email">
          <input name="email" type="email" className={`${inputClass} w-64`} required />
        </Field>
        <Field label="Role" name="role">
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
              <RowActionForm action={removeMember.bind(null, m.userId)}>
                <ConfirmSubmit label="Remove" what={m.email} question="They lose their role on this Work at once." />
              </RowActionForm>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

export function SecretsSection({
  secrets,
  setSecret,
  deleteSecret,
}: {
  secrets: readonly { name: string; updatedAt: Date }[];
  setSecret: FormAction<{ name: string }>;
  deleteSecret: (name: string) => Promise<ActionResult<null>>;
}) {
  return (
    <Section
      id="secrets"
      title="Secrets"
      description="Values are encrypted at rest and never shown again. A check sees a secret only when it lists the name in envPassthrough; values are replaced by *** in every log, tail, message and brief."
    >
      <ActionForm
        action={setSecret}
        submitLabel="Save secret"
        ariaLabel="Set a secret"
        className="mb-4"
        successText="Saved {name}."
      >
        <Field label="Name" name="name">
          <input name="name" placeholder="NPM_TOKEN" className={`${inputClass} w-56 font-mono`} required />
        </Field>
        <Field label="Value" name="value">
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
              <RowActionForm action={deleteSecret.bind(null, s.name)}>
                <ConfirmSubmit
                  label="Delete"
                  what={s.name}
                  question="Checks that use it no longer get it; its value cannot be shown or restored."
                />
              </RowActionForm>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
