import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getPageActor } from "@/lib/auth/page-actor";
import { listAllUsers } from "@/lib/services/users";
import { formatDateTime } from "@/lib/format";
import { ActionForm, Field } from "@/components/ui/action-form";
import { inputClass } from "@/components/ui/input-classes";
import { buttonClass } from "@/components/ui/button";
import { PageHeader, Pill, rowListClass, Section } from "@/components/ui/page-parts";
import { createUserAction, setAdminAction } from "./actions";

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
          <Field label="Email">
            <input name="email" type="email" className={`${inputClass} w-64`} required />
          </Field>
          <Field label="Name">
            <input name="name" className={`${inputClass} w-48`} />
          </Field>
          <Field label="Password">
            <input
              name="password"
              type="password"
              autoComplete="new-password"
              className={`${inputClass} w-48`}
              required
            />
          </Field>
          <label className="flex items-center gap-2 pb-2 text-sm">
            <input type="checkbox" name="admin" /> admin
          </label>
        </ActionForm>
      </Section>
      <Section title={`Everyone (${users.length})`}>
        <ul className={rowListClass} aria-label="People">
          {users.map((u) => (
            <li key={u.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
              <div>
                <span className="font-medium">{u.name}</span>{" "}
                <span className="text-zinc-500 dark:text-zinc-400">{u.email}</span>{" "}
                {u.isAdmin ? <Pill tone="violet">admin</Pill> : null}
                <div className="text-xs text-zinc-500 dark:text-zinc-400">since {formatDateTime(u.createdAt)}</div>
              </div>
              {u.id === actor.userId ? null : (
                <form action={setAdminAction.bind(null, u.id, !u.isAdmin)}>
                  <button type="submit" className={buttonClass("secondary", "sm")}>
                    {u.isAdmin ? "Remove admin" : "Make admin"}
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
