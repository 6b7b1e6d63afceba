import type { Metadata } from "next";
import { getPageActor } from "@/lib/auth/page-actor";
import { PageHeader, Section } from "@/components/ui/page-parts";
import { ChangePasswordForm } from "@/components/auth/change-password-form";
import { changePasswordAction } from "./actions";

export const metadata: Metadata = { title: "Password" };

export default async function PasswordPage() {
  const actor = await getPageActor();
  return (
    <>
      <PageHeader
        title="Password"
        meta={
          `The password ${actor.email ?? "you"} signs in with. ` +
          "Changing it signs out your other browsers; API tokens keep working."
        }
      />
      <Section title="Change your password">
        <ChangePasswordForm change={changePasswordAction} />
      </Section>
    </>
  );
}
