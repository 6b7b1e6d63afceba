"use client";
// The button of a form that cannot be undone (revoke a token, remove a member, delete a secret), in two
// presses: the first asks, saying what will happen; the second, its own button, submits. Cancel (or Escape)
// goes back without doing anything. The step is ConfirmStep's, as every action asked twice.
import { Button } from "./button";
import { ConfirmStep, useConfirmStep } from "./confirm-step";

export function ConfirmSubmit({ label, what, question }: { label: string; what: string; question: string }) {
  const confirming = useConfirmStep();
  if (!confirming.isAsking)
    return (
      <Button
        ref={confirming.askerRef}
        variant="danger"
        size="sm"
        aria-label={`${label} ${what}`}
        onClick={confirming.ask}
      >
        {label}
      </Button>
    );
  return (
    <ConfirmStep
      question={`${label} ${what}?`}
      confirmLabel={`Yes, ${label.toLowerCase()}`}
      keepLabel="Cancel"
      submits
      onKeep={confirming.leave}
    >
      {question}
    </ConfirmStep>
  );
}
