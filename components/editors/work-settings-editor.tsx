"use client";
// A Work's settings, one section at a time (each its own URL), edited inline and validated as you type with
// the schema the server uses. The working copy is shared by every section, so moving between them keeps
// what was typed; each section saves only its own settings, carrying the version the editing started from:
// a stale save is refused and shows what the other person changed.
import { isUntouchedCheckError } from "@/lib/editors/check-form";
import { useMemo } from "react";
import { useSelectedLayoutSegment } from "next/navigation";
import type { ActionResult } from "@/lib/actions/safe-action";
import { pickSettings, settingsInSection, SETTINGS_SECTIONS, type SettingKey } from "@/lib/gates/work-settings";
import {
  validateWorkForm,
  workFormFrom,
  workPatchFrom,
  type PlatformDirs,
  type WorkSettings,
} from "@/lib/editors/work-form";
import { ConflictPanel } from "./conflict-panel";
import { SaveBar } from "./save-bar";
import { SettingsNav } from "./settings-nav";
import { isEditorSection, isSettingsPageSection, sectionLabel } from "./settings-sections";
import { useLeaveGuard } from "./use-leave-guard";
import { useVersionedSettings } from "./use-versioned-settings";
import { WorkSettingsSection } from "./work-settings-section";

type Props = {
  workId: string;
  initial: WorkSettings;
  // The Work's secrets' names (a check source's credential is one of them).
  secretNames: readonly string[];
  // A sandbox mount of these is refused as you type, as the server would.
  platformDirs: PlatformDirs;
  save: (input: unknown) => Promise<ActionResult<WorkSettings>>;
  // The server-rendered sections (assets, history).
  children: React.ReactNode;
};

const settingsOf = (s: WorkSettings) => pickSettings(s);
// The section each setting belongs to, and the setting a field path belongs to ("checkDefaults.2.id").
const sectionOfKey = new Map(SETTINGS_SECTIONS.flatMap((s) => settingsInSection(s).map((k) => [k, s] as const)));
const keyOfPath = (path: string) => path.split(".")[0] as SettingKey;

export function WorkSettingsEditor({ workId, initial, secretNames, platformDirs, save, children }: Props) {
  const segment = useSelectedLayoutSegment();
  // An unknown section: the page's not-found panel (children) beside the navigation.
  const isUnknown = segment !== null && !isSettingsPageSection(segment);
  const active = segment && isSettingsPageSection(segment) ? segment : "checks";
  const editor = useVersionedSettings({ initial, save, formFrom: workFormFrom, patchFrom: workPatchFrom });
  const { form, setForm, version, conflict, isDirty, dirtyKeys } = editor;
  const errors = useMemo(
    () => validateWorkForm(form, version, secretNames, platformDirs),
    [form, version, secretNames, platformDirs],
  );
  const unsaved = new Set(dirtyKeys.map((k) => sectionOfKey.get(k as SettingKey) ?? ""));
  // A check just added shows no problem until something is typed in it: counted apart, as "to fill in".
  const isToFillIn = (p: string) => isUntouchedCheckError(p, "checkDefaults", form.checkDefaults);
  const shown = [...errors.keys()].filter((p) => !isToFillIn(p));
  const withProblems = new Set(shown.map((p) => sectionOfKey.get(keyOfPath(p)) ?? ""));

  useLeaveGuard(isDirty, `/works/${workId}/settings`);

  const keys = isEditorSection(active) ? settingsInSection(active) : [];
  const sectionErrors = shown.filter((p) => keys.includes(keyOfPath(p))).length;
  const toFillIn = [...errors.keys()].filter((p) => isToFillIn(p) && keys.includes(keyOfPath(p))).length;
  const othersUnsaved = [...unsaved].filter((s) => s && s !== active).map(sectionLabel);
  return (
    <div className="grid gap-6 lg:grid-cols-[13rem_minmax(0,1fr)]">
      <SettingsNav workId={workId} active={active} unsaved={unsaved} withProblems={withProblems} />
      <div className="min-w-0">
        {!isUnknown && isEditorSection(active) ? (
          <div className="space-y-6">
            {/* What the page itself has to say above an editor section (the settings page's notice about a
                repository the server could not reach); the sections' own pages draw nothing here. */}
            {children}
            <WorkSettingsSection
              workId={workId}
              section={active}
              form={form}
              setForm={setForm}
              errors={errors}
              secretNames={secretNames}
            />
            {conflict ? (
              <ConflictPanel
                what="Work"
                theirVersion={conflict.version}
                before={settingsOf(editor.base)}
                theirs={settingsOf(conflict)}
                onLoadTheirs={() => editor.loadTheirs(conflict, keys)}
                onKeepMine={() => editor.keepMine(conflict)}
              />
            ) : null}
            <SaveBar
              problems={sectionErrors}
              isIncomplete={toFillIn > 0}
              isDirty={keys.some((k) => dirtyKeys.includes(k))}
              isPending={editor.isPending}
              version={version}
              message={editor.message}
              note={
                othersUnsaved.length
                  ? `Not saved yet in ${othersUnsaved.join(", ")}: each section saves on its own.`
                  : undefined
              }
              onSave={() => editor.submit(keys)}
              onDiscard={() => editor.discard(keys)}
            />
          </div>
        ) : (
          children
        )}
      </div>
    </div>
  );
}
