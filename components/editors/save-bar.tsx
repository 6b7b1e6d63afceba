"use client";
// The sticky bar under a settings editor: save, discard, and where the edit stands.
import { useEffect, useRef } from "react";
import { Button } from "../ui/button";
import { InlineError } from "../ui/inline-error";
import type { SaveMessage } from "./use-versioned-settings";

type Props = {
  problems: number;
  // A check just added is not filled in yet (its problems are not shown until something is typed in it).
  isIncomplete?: boolean;
  isDirty: boolean;
  isPending: boolean;
  version: number;
  message: SaveMessage | null;
  // Something else the person should know (edits not saved in other sections).
  note?: string;
  onSave: () => void;
  onDiscard: () => void;
};

// The summary leads to the field: the first one marked invalid on the page gets the focus. A button, not a
// link: it moves the focus and goes to no address.
function goToFirstProblem() {
  const field = document.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!field) return;
  field.scrollIntoView({ block: "center" });
  field.focus();
}

// While the bar is on the page, the page keeps its height clear when it scrolls a field into view (Tab
// included): a focused button under the bar, on a phone, would be pressed unseen.
function useScrollPaddingFor(bar: React.RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      root.style.scrollPaddingBottom = `${Math.ceil(element.getBoundingClientRect().height) + 8}px`;
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingBottom = "";
    };
  }, [bar]);
}

export function SaveBar({
  problems,
  isIncomplete = false,
  isDirty,
  isPending,
  version,
  message,
  note,
  onSave,
  onDiscard,
}: Props) {
  const bar = useRef<HTMLDivElement>(null);
  useScrollPaddingFor(bar);
  return (
    <div
      ref={bar}
      data-testid="save-bar"
      className={
        "sticky bottom-0 z-20 -mx-4 flex flex-wrap items-center gap-3 border-t border-zinc-200 " +
        "bg-white/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6 " +
        "dark:border-zinc-800 dark:bg-zinc-950/95"
      }
    >
      <Button variant="primary" disabled={isPending || problems > 0 || isIncomplete || !isDirty} onClick={onSave}>
        {isPending ? "Saving…" : "Save changes"}
      </Button>
      <Button variant="ghost" disabled={isPending || !isDirty} onClick={onDiscard}>
        Discard
      </Button>
      <span className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite" data-testid="editor-status">
        {problems > 0 ? (
          <>
            {problems} problem{problems === 1 ? "" : "s"} to fix before saving ·{" "}
            <button
              type="button"
              onClick={goToFirstProblem}
              className="font-medium text-rose-700 underline dark:text-rose-300"
            >
              Go to the first
            </button>
          </>
        ) : isIncomplete ? (
          "Fill in the new check to save"
        ) : isDirty ? (
          "Unsaved changes"
        ) : (
          `Version ${version}, saved`
        )}
      </span>
      {message?.kind === "saved" ? (
        <span role="status" className="text-sm font-medium text-emerald-700 dark:text-emerald-400">
          {message.text}
        </span>
      ) : null}
      {message?.kind === "saved" && message.warnings?.length ? (
        <ul
          aria-label="Saved, with warnings"
          className="basis-full space-y-1 rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950/40 dark:text-amber-100"
        >
          {message.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      {message?.kind === "error" ? <SaveError text={message.text} /> : null}
      {note ? (
        <span className="basis-full text-sm text-amber-800 sm:basis-auto dark:text-amber-300">{note}</span>
      ) : null}
    </div>
  );
}

// A refused save names the field first ("checkDefaults.2.timeoutSec: …"): a link to it when the page has it.
function SaveError({ text }: { text: string }) {
  const path = /^([A-Za-z]+(?:\.[\w-]+)*): /.exec(text)?.[1];
  if (!path) return <InlineError message={text} />;
  return (
    <p
      role="alert"
      className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:bg-rose-950 dark:text-rose-200"
    >
      <a
        href={`#${path}`}
        onClick={(event) => {
          const field = document.getElementById(path) ?? document.querySelector<HTMLElement>('[aria-invalid="true"]');
          if (!field) return;
          event.preventDefault();
          field.scrollIntoView({ block: "center" });
          field.focus();
        }}
        className="underline"
      >
        {text}
      </a>
    </p>
  );
}
