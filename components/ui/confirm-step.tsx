"use client";
// The second press of an action Gatehouse cannot take back (cancel a run, merge a task into the base branch):
// the first press opens this step, which says what will happen; its confirming button takes the focus at once
// (the keyboard goes on from the first press), and Escape or the other button backs out, the focus going back
// to the button that asked. With `submits`, the confirming button is its form's submit button (ConfirmSubmit).
import { type ReactNode, type RefObject, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Button, type ButtonVariant } from "./button";

// The step's state and the button that opens it (its ref gets the focus back when the step is left).
export function useConfirmStep(): {
  isAsking: boolean;
  ask: () => void;
  leave: () => void;
  askerRef: RefObject<HTMLButtonElement | null>;
} {
  const [isAsking, setAsking] = useState(false);
  const askerRef = useRef<HTMLButtonElement>(null);
  return {
    isAsking,
    ask: () => setAsking(true),
    leave: () => {
      // The asking button is rendered again by this update: focused once it is back in the page.
      flushSync(() => setAsking(false));
      askerRef.current?.focus();
    },
    askerRef,
  };
}

type Props = {
  // The question, as the group's accessible name ("Cancel this run?").
  question: string;
  // What will happen, said beside the buttons.
  children: ReactNode;
  confirmLabel: string;
  keepLabel: string;
  variant?: ButtonVariant;
  isPending?: boolean;
  // The confirming press submits the form the step is in (onConfirm, when given, runs first).
  submits?: boolean;
  onConfirm?: () => void;
  onKeep: () => void;
  className?: string;
};

export function ConfirmStep({
  question,
  children,
  confirmLabel,
  keepLabel,
  variant = "danger",
  isPending = false,
  submits = false,
  onConfirm,
  onKeep,
  className = "",
}: Props) {
  const backOutOnEscape = (event: { key: string }) => {
    if (event.key === "Escape") onKeep();
  };
  return (
    <fieldset className={`flex flex-wrap items-center gap-2 ${className}`} aria-label={question}>
      <span className="text-xs text-zinc-600 dark:text-zinc-400">{children}</span>
      {/* The two answers stay side by side, whichever line the question leaves them. */}
      <span className="flex flex-wrap gap-2">
        <Button
          variant={variant}
          size="sm"
          type={submits ? "submit" : "button"}
          disabled={isPending}
          // The confirming press follows the first at once, from the keyboard too.
          autoFocus
          onKeyDown={backOutOnEscape}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
        <Button variant="secondary" size="sm" onKeyDown={backOutOnEscape} onClick={onKeep}>
          {keepLabel}
        </Button>
      </span>
    </fieldset>
  );
}
