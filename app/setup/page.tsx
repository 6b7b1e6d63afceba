import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { needsFirstAdmin } from "@/lib/services/auth";
import { AuthForm } from "@/components/auth/auth-form";
import { AuthPanel } from "@/components/auth/auth-panel";
import { createFirstAdminAction } from "../signin/actions";

export const metadata: Metadata = { title: "Set up" };

// First run: no account exists yet, so the first person creates the admin account.
export default async function SetupPage() {
  if (!(await needsFirstAdmin())) redirect("/signin");
  return (
    <AuthPanel
      title="Welcome to Gatehouse"
      intro="Create the first admin account. Admins add people and give them roles on each Work."
    >
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
            hint: "At least 10 characters, 5 of them different.",
          },
        ]}
      />
    </AuthPanel>
  );
}
