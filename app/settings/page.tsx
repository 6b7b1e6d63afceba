import { redirect } from "next/navigation";

// `/settings` is a person's own settings; API tokens are the only section so far.
export default function SettingsPage(): never {
  redirect("/settings/tokens");
}
