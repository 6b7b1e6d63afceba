// The sections of a Work's settings page, in the order of its navigation: which Work it is (its name,
// repository and base branch: general), the settings sections of the registry (each saved on its own), then
// the other server-rendered ones: the secrets, the people (access), the assets and the history.
import { SETTINGS_SECTIONS, type SettingsSection } from "@/lib/gates/work-settings";
import { isServerSection, isSettingsPageSection, type SettingsPageSection } from "@/lib/pages/settings-page-sections";

export { isServerSection, isSettingsPageSection, type SettingsPageSection };

type NavEntry = { id: SettingsPageSection; label: string };

const LABELS: Record<SettingsSection, string> = {
  checks: "Checks",
  policy: "Policy and attempts",
  agent: "Agent",
  proof: "Proof",
  verification: "Verification",
  sources: "Check sources",
  merge: "Merge",
  sandbox: "Sandbox",
  webhooks: "Webhooks",
  lanes: "Lanes",
};

export const SETTINGS_PAGE_SECTIONS: readonly NavEntry[] = [
  { id: "general", label: "General" },
  ...SETTINGS_SECTIONS.map((id) => ({ id, label: LABELS[id] })),
  { id: "secrets", label: "Secrets" },
  { id: "access", label: "Access" },
  { id: "assets", label: "Assets" },
  { id: "history", label: "History" },
];

export function sectionLabel(id: string): string {
  return SETTINGS_PAGE_SECTIONS.find((s) => s.id === id)?.label ?? id;
}

export const isEditorSection = (id: string): id is SettingsSection =>
  (SETTINGS_SECTIONS as readonly string[]).includes(id);
