"use client";
// One of the Work's checks as a task sees it: inherited, overridden (edited below) or suppressed.
import { whatCheckRuns } from "@/lib/gates/builtins";
import type { Check } from "@/lib/gates/check-schema";
import { showControls } from "@/lib/format";
import { Button } from "../ui/button";
import { Pill } from "../ui/page-parts";

// The row's frame says its state before its label does: dashed when suppressed, blue when overridden.
const FRAME = {
  inherited: "border-zinc-200 dark:border-zinc-800",
  overridden: "border-sky-300 dark:border-sky-800",
  suppressed: "border-dashed border-zinc-300 dark:border-zinc-700",
};

type Props = {
  check: Check;
  state: "inherited" | "overridden" | "suppressed";
  // A held-out check of the Work seen below lead: kept as the lead set it (no Override, no Suppress).
  isLeadsOnly?: boolean;
  onOverride: () => void;
  onSuppress: () => void;
  onInherit: () => void;
  children?: React.ReactNode;
};

export function InheritedCheckRow({ check, state, isLeadsOnly, onOverride, onSuppress, onInherit, children }: Props) {
  return (
    <li
      aria-label={`${check.name} (${state})`}
      className={`rounded-lg border bg-white p-4 shadow-sm dark:bg-zinc-900 ${FRAME[state]}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex min-w-0 flex-wrap items-center gap-2">
          <span
            className={
              "font-medium [overflow-wrap:anywhere] " +
              (state === "suppressed" ? "text-zinc-600 line-through dark:text-zinc-400" : "")
            }
          >
            {check.name}
          </span>
          <code className="text-xs text-zinc-500 dark:text-zinc-400">{check.id}</code>
          <Pill tone={state === "overridden" ? "sky" : state === "suppressed" ? "amber" : "zinc"}>{state}</Pill>
        </span>
        <span className="flex gap-1">
          {state === "inherited" && isLeadsOnly ? (
            <span className="text-xs text-zinc-500 dark:text-zinc-400">
              Held out: a lead overrides or suppresses it
            </span>
          ) : state === "inherited" ? (
            <>
              <Button size="sm" onClick={onOverride} aria-label={`Override ${check.id}`}>
                Override
              </Button>
              <Button size="sm" onClick={onSuppress} aria-label={`Suppress ${check.id}`}>
                Suppress
              </Button>
            </>
          ) : (
            <Button size="sm" onClick={onInherit} aria-label={`Back to inherit ${check.id}`}>
              Back to inherit
            </Button>
          )}
        </span>
      </div>
      {state === "inherited" ? (
        <pre
          className={
            "mt-2 overflow-x-auto rounded bg-zinc-50 px-2 py-1 font-mono text-xs text-zinc-700 " +
            "dark:bg-zinc-950 dark:text-zinc-300"
          }
        >
          {check.use ? "built-in " : "$ "}
          {showControls(whatCheckRuns(check))}
        </pre>
      ) : null}
      {children ? <div className="mt-3">{children}</div> : null}
    </li>
  );
}
