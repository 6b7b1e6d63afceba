"use client";
// The sticky bar under a settings editor: save, discard, and where the edit stands.
import { Button } from "../ui/button";
import { InlineError } from "../ui/inline-error";
import type { SaveMessage } from "./use-versioned-settings";

type Props = {
  problems: number;
  isDirty: boolean;
  isPending: boolean;
  version: number;
  message: SaveMessage | null;
  // Something else the person should know (edits not saved in other sections).
  note?: string;
  onSave: () => void;
  onDiscard: () => void;
};

export function SaveBar({ problems, isDirty, isPending, version, message, note, onSave, onDiscard }: Props) {
  return (
    <div className="sticky bottom-0 z-20 -mx-4 flex flex-wrap items-center gap-3 border-t border-zinc-200 bg-white/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6 dark:border-zinc-800 dark:bg-zinc-950/95">
      <Button variant="primary" disabled={isPending || problems > 0 || !isDirty} onClick={onSave}>
        {isPending ? "Saving…" : "Save changes"}
      </Button>
      <Button variant="ghost" disabled={isPending || !isDirty} onClick={onDiscard}>
        Discard
      </Button>
      <span className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite" data-testid="editor-status">
        {problems > 0
          ? `${problems} problem${problems === 1 ? "" : "s"} to fix before saving`
          : isDirty
            ? "Unsaved changes"
            : `Version ${version}, saved`}
      </span>
      {message?.kind === "saved" ? (
        <span role="status" className="text-sm font-medium text-emerald-700 dark:text-emerald-400">
          {message.text}
        </span>
      ) : null}
      {message?.kind === "error" ? <InlineError message={message.text} /> : null}
      {note ? (
        <span className="basis-full text-sm text-amber-800 sm:basis-auto dark:text-amber-300">{note}</span>
      ) : null}
    </div>
  );
}
