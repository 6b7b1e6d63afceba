import type { Metadata } from "next";

export const metadata: Metadata = { title: "Checks and policy" };

// The settings page opens on its first section, the checks, which the layout's editor shows.
export default function WorkSettingsPage() {
  return null;
}
