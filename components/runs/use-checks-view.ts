"use client";
// The attempt and the check rows the reader chose in a run's Checks section. On the run page they are kept in
// its address (lib/pages/run-page-view.ts), so Back (from a full log or a link out), a reload and a pasted link
// show the same; elsewhere (a task's latest run) they are kept in memory and the address is left alone.
//
// The address is written with the browser's replaceState, which Next's router follows (useSearchParams reads it
// back, with no request to the server): choosing attempt 1, then 2, then 3 is one place in the history, so Back
// leaves the run page as it would have before, rather than stepping through every attempt clicked (GitHub's and
// Buildkite's attempt and job pickers do the same). It is written only when the reader chooses, never on load:
// the router takes over replaceState in an effect that runs after the page's own (components/layout/
// history-guard.ts relies on that order too), so a call made while the page mounts would slip past it.
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { NO_CHOICE, type RunPageView, runPageSearchOf, runPageViewOf } from "@/lib/pages/run-page-view";

type ChangeView = (change: (view: RunPageView) => RunPageView) => void;

export function useChecksView(isInAddress: boolean, attempts: readonly number[]): [RunPageView, ChangeView] {
  const query = useSearchParams();
  const [kept, setKept] = useState(NO_CHOICE);
  if (!isInAddress) return [kept, setKept];
  const change: ChangeView = (changeOf) => {
    // From the address as it stands now: two rows toggled before a render both stay.
    const { pathname, search, hash } = window.location;
    const next = changeOf(runPageViewOf(new URLSearchParams(search), attempts));
    window.history.replaceState(null, "", `${pathname}${runPageSearchOf(search, next)}${hash}`);
  };
  return [runPageViewOf(query, attempts), change];
}
