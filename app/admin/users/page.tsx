import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getPageActor } from "@/lib/auth/page-actor";
import { listAllUsers } from "@/lib/services/users";
import { formatDateTime } from "@/lib/format";
import { ActionForm, Field } from "@/components/ui/action-form";
import { inputClass } from "@/components/ui/input-classes";
import { buttonClass } from "@/components/ui/button";
import { PageHeader, Pill, rowListClass, Section } from "@/components/ui/page-parts";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { RowActionForm } from "@/components/ui/row-action-form";
import { AUTOMATION_EMAIL } from "@/lib/auth/automation";
import { NEW_PASSWORD_RULE } from "@/lib/auth/schemas";
import { createUserAction, setAdminAction, setDisabledAction, setPasswordAction } from "./actions";

export const metadata: Metadata = { title: "People" };

export default async function UsersPage() {
  const actor = await getPageActor();
  if (!actor.isAdmin) notFound();
  const users = await listAllUsers(actor);
  return (
    <>
      <PageHeader title="People" meta="Admins add people here; roles are given per Work, on each Work's Access page." />
      <Section title="Add a person">
        <ActionForm action={createUserAction} submitLabel="Add" ariaLabel="Add a person" successText="Added {email}.">
          <Field label="Email" name="email">
            <input name="email" type="email" className={`${inputClass} w-64`} required />
          </Field>
          <Field label="Name" name="name">
            <input name="name" className={`${inputClass} w-48`} />
          </Field>
          <Field label="Password" name="password">
            <NewPasswordInput width="w-48" />
          </Field>
          <label className="flex items-center gap-2 pb-2 text-sm">
            <input type="checkbox" name="admin" /> admin
          </label>
          <p className="w-full text-xs text-zinc-500 dark:text-zinc-400">Password: {NEW_PASSWORD_RULE.toLowerCase()}</p>
        </ActionForm>
      </Section>
      <Section title={`Everyone (${users.length})`}>
        <ul className={rowListClass} aria-label="People">
          {users.map((u) => (
            <li key={u.id} className="flex flex-wrap items-start justify-between gap-3 px-4 py-3 text-sm">
              <div className={u.disabledAt ? "opacity-70" : undefined}>
                <span className="font-medium">{u.name}</span>{" "}
                <span className="break-words text-zinc-500 dark:text-zinc-400">{u.email}</span>{" "}
                {u.isAdmin ? <Pill tone="violet">admin</Pill> : null}{" "}
                {u.disabledAt ? <Pill tone="amber">disabled</Pill> : null}
                <div className="text-xs text-zinc-500 dark:text-zinc-400">
                  since {formatDateTime(u.createdAt)}
                  {u.disabledAt
                    ? ` · disabled ${formatDateTime(u.disabledAt)}: cannot sign in, API tokens refused`
                    : ""}
                </div>
              </div>
              {u.id === actor.userId ? (
                <span className="text-xs text-zinc-500 dark:text-zinc-400">you</span>
              ) : u.email === AUTOMATION_EMAIL ? (
                <span className="max-w-64 text-xs text-zinc-500 dark:text-zinc-400">
                  GATEHOUSE_BOOTSTRAP_TOKEN&apos;s account: turned off by unsetting that setting, not here
                </span>
              ) : (
                <PersonActions person={u} />
              )}
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}

// What an admin can do to someone else: admin rights, disable or enable, a new password.
function PersonActions({
  person,
}: {
  person: { id: string; email: string; isAdmin: boolean; disabledAt: Date | null };
}) {
  return (
    <div className="flex flex-col items-start gap-2 sm:items-end">
      <div className="flex flex-wrap items-center gap-2">
        <RowActionForm action={setAdminAction.bind(null, person.id, !person.isAdmin)}>
          <button type="submit" className={buttonClass("secondary", "sm")}>
            {person.isAdmin ? "Remove admin" : "Make admin"}
          </button>
        </RowActionForm>
        <RowActionForm action={setDisabledAction.bind(null, person.id, !person.disabledAt)}>
          {person.disabledAt ? (
            <button type="submit" className={buttonClass("secondary", "sm")} aria-label={`Enable ${person.email}`}>
              Enable
            </button>
          ) : (
            <ConfirmSubmit
              label="Disable"
              what={person.email}
              question={
                "They are signed out everywhere and cannot sign in; " +
                "their API tokens are refused until you enable them."
              }
            />
          )}
        </RowActionForm>
      </div>
      <details className="group w-full sm:w-auto">
        <summary className="cursor-pointer text-xs text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400">
          Set a new password
        </summary>
        <ActionForm
          action={setPasswordAction.bind(null, person.id)}
          submitLabel="Set password"
          variant="secondary"
          ariaLabel={`New password for ${person.email}`}
          successText="New password set for {email}: their sessions ended; tell them the password yourself."
          className="mt-2"
        >
          <Field label="New password" name="password">
            <NewPasswordInput width="w-56" />
          </Field>
          <p className="w-full text-xs text-zinc-500 dark:text-zinc-400">{NEW_PASSWORD_RULE}</p>
        </ActionForm>
      </details>
    </div>
  );
}

// A password someone is given (a new person's, or a new one for someone who lost theirs).
// Marked invalid by the Field around it (aria-invalid, aria-describedby) like a plain input.
function NewPasswordInput({ width, ...aria }: { width: string } & React.AriaAttributes) {
  return (
    <input
      name="password"
      type="password"
      autoComplete="new-password"
      className={`${inputClass} ${width}`}
      required
      {...aria}
    />
  );
}
