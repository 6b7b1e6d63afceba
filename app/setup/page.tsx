import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { needsFirstAdmin } from "@/lib/services/auth";
import { AuthForm } from "@/components/auth/auth-form";
import { GateIcon } from "@/components/ui/icons";
import { createFirstAdminAction } from "../signin/actions";

export const metadata: Metadata = { title: "Set up" };

// First run: no account exists yet, so the first person creates the admin account.
export default async function SetupPage() {
  if (!(await needsFirstAdmin())) redirect("/signin");
  return (
    <div className="mx-auto mt-8 max-w-sm sm:mt-16">
      <div className="mb-6 flex flex-col items-center gap-3 text-center">
        <span className="grid size-11 place-items-center rounded-xl bg-zinc-900 text-2xl text-white dark:bg-white dark:text-zinc-900">
          <GateIcon />
        </span>
        <h1 className="text-xl font-semibold tracking-tight">Welcome to Gatehouse</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Create the first admin account. Admins add people and give them roles on each Work.
        </p>
      </div>
      <div className="rounded-xl border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        <AuthForm
          action={createFirstAdminAction}
          submitLabel="Create admin and sign in"
          fields={[
            { name: "name", label: "Name", type: "text", autoComplete: "name" },
            { name: "email", label: "Email", type: "email", autoComplete: "username" },
            {
              name: "password",
              label: "Password",
              type: "password",
              autoComplete: "new-password",
              hint: "At least 10 characters.",
            },
          ]}
        />
      </div>
    </div>
  );
}
