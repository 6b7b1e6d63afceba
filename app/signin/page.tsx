import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { findSessionActor } from "@/lib/auth/page-actor";
import { needsFirstAdmin } from "@/lib/services/auth";
import { AuthForm } from "@/components/auth/auth-form";
import { AuthPanel } from "@/components/auth/auth-panel";
import { signInAction } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  if (await findSessionActor()) redirect("/");
  if (await needsFirstAdmin()) redirect("/setup");
  const { next } = await searchParams;
  return (
    <AuthPanel title="Sign in to Gatehouse">
      <AuthForm
        action={signInAction}
        next={next}
        submitLabel="Sign in"
        fields={[
          { name: "email", label: "Email", type: "email", autoComplete: "username" },
          { name: "password", label: "Password", type: "password", autoComplete: "current-password" },
        ]}
      />
    </AuthPanel>
  );
}
