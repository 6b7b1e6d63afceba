import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { findSessionActor } from "@/lib/auth/page-actor";
import { needsFirstAdmin } from "@/lib/services/auth";
import { AuthForm } from "@/components/auth/auth-form";
import { GateIcon } from "@/components/ui/icons";
import { signInAction } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  if (await findSessionActor()) redirect("/");
  if (await needsFirstAdmin()) redirect("/setup");
  const { next } = await searchParams;
  return (
    <div className="mx-auto mt-8 max-w-sm sm:mt-16">
      <div className="mb-6 flex flex-col items-center gap-3 text-center">
        <span className="grid size-11 place-items-center rounded-xl bg-zinc-900 text-2xl text-white dark:bg-white dark:text-zinc-900">
          <GateIcon />
        </span>
        <h1 className="text-xl font-semibold tracking-tight">Sign in to Gatehouse</h1>
      </div>
      <div className="rounded-xl border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        <AuthForm
          action={signInAction}
          next={next}
          submitLabel="Sign in"
          fields={[
            { name: "email", label: "Email", type: "email", autoComplete: "username" },
            { name: "password", label: "Password", type: "password", autoComplete: "current-password" },
          ]}
        />
      </div>
    </div>
  );
}
