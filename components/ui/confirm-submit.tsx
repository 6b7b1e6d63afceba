"use client";
// The button of a form that cannot be undone (revoke a token, remove a member, delete a secret), in two
// presses: the first asks, saying what will happen; the second, its own button, submits. Cancel (or Escape)
// goes back without doing anything.
import { useState } from "react";
import { buttonClass } from "./button";

export function ConfirmSubmit({ label, what, question }: { label: string; what: string; question: string }) {
  const [isAsking, setAsking] = useState(false);
  if (!isAsking)
    return (
      <button
        type="button"
        className={buttonClass("danger", "sm")}
        aria-label={`${label} ${what}`}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  return (
    <fieldset className="flex flex-wrap items-center gap-2" aria-label={`${label} ${what}?`}>
      <span className="text-xs text-zinc-600 dark:text-zinc-400">{question}</span>
      <button
        type="submit"
        className={buttonClass("danger", "sm")}
        // biome-ignore lint/a11y/noAutofocus: the confirming press follows the first at once, from the keyboard too
        autoFocus
        onKeyDown={(event) => {
          if (event.key === "Escape") setAsking(false);
        }}
      >
        Yes, {label.toLowerCase()}
      </button>
      <button type="button" className={buttonClass("secondary", "sm")} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </fieldset>
  );
}
