// The sections of a Work's settings page, in the order of its navigation: the settings sections of the
// registry (each saved on its own), the assets and the history (server-rendered), and the secrets and
// people, which live on the Work's access page.
import { SETTINGS_SECTIONS, type SettingsSection } from "@/lib/gates/work-settings";

export type SettingsPageSection = SettingsSection | "assets" | "history";
type NavEntry = { id: SettingsPageSection | "secrets" | "access"; label: string; href?: (workId: string) => string };

const LABELS: Record<SettingsSection, string> = {
  checks: "Checks",
  policy: "Policy and attempts",
  agent: "Agent",
  proof: "Proof",
  verification: "Verification",
  sources: "Check sources",
  merge: "Merge",
  sandbox: "Sandbox",
  lanes: "Lanes",
};

export const SETTINGS_PAGE_SECTIONS: readonly NavEntry[] = [
  ...SETTINGS_SECTIONS.map((id) => ({ id, label: LABELS[id] })),
  { id: "secrets", label: "Secrets", href: (workId) => `/works/${workId}/access#secrets` },
  { id: "access", label: "Access", href: (workId) => `/works/${workId}/access` },
  { id: "assets", label: "Assets" },
  { id: "history", label: "History" },
];

export function sectionLabel(id: string): string {
  return SETTINGS_PAGE_SECTIONS.find((s) => s.id === id)?.label ?? id;
}

export function isSettingsPageSection(id: string): id is SettingsPageSection {
  return id === "assets" || id === "history" || (SETTINGS_SECTIONS as readonly string[]).includes(id);
}

export const isEditorSection = (id: string): id is SettingsSection =>
  (SETTINGS_SECTIONS as readonly string[]).includes(id);
