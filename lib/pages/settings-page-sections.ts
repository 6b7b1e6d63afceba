// The sections of a Work's settings page by id: the registry's (each saved on its own) and the ones the
// server draws — which Work it is (general), the secrets, the people (access), the assets and the history.
// The navigation (components/editors/settings-sections.ts) orders and names them; proxy.ts asks whether an
// address names one before its page streams.
import { SETTINGS_SECTIONS, type SettingsSection } from "../gates/work-settings";

const SERVER_SECTIONS = ["general", "secrets", "access", "assets", "history"] as const;
export type ServerSection = (typeof SERVER_SECTIONS)[number];
export type SettingsPageSection = SettingsSection | ServerSection;

export const isServerSection = (id: string): id is ServerSection => (SERVER_SECTIONS as readonly string[]).includes(id);

export function isSettingsPageSection(id: string): id is SettingsPageSection {
  return isServerSection(id) || (SETTINGS_SECTIONS as readonly string[]).includes(id);
}
