"use client";
// The browser's Back and Forward, held while a page has edits to lose. The URL has already changed when
// `popstate` comes, and the router acts on that event at once (it renders the page the history went to, which
// unmounts the editor), so this listener must hear it first: it is installed from the root of the app, whose
// effect runs before the router's (a child's effects run before its parent's), and it is the only one. While a
// page has set a guard that says no (the person chose to stay), the router never hears of the traversal, and
// the history is taken back to where it was — as far as it came, told by the entry it came from, which the
// Navigation API (where the browser has it) names just before `popstate`; without it, one step forward, since
// Back is by far the usual way out. The return is kept from the router too.
type Guard = (to: URL) => boolean;
type EntryChange = { from: { index: number } };
type Navigation = {
  currentEntry?: { index: number } | null;
  addEventListener(type: "currententrychange", listener: (event: EntryChange) => void): void;
  removeEventListener(type: "currententrychange", listener: (event: EntryChange) => void): void;
};

let guard: Guard | null = null;

// `mayLeave(to)` answers whether the history may go to `to` (asking the person if need be); null: no guard.
// Returns the way to take it off again (which leaves a later page's guard alone).
export function guardHistory(mayLeave: Guard): () => void {
  guard = mayLeave;
  return () => {
    if (guard === mayLeave) guard = null;
  };
}

export function installHistoryGuard(): () => void {
  const navigation = (window as { navigation?: Navigation }).navigation;
  let cameFrom: number | null = null;
  // Until when the next popstate is the return this guard asked for (a return that never comes — a history
  // changed meanwhile — must not swallow a later Back).
  let returningUntil = 0;
  const onEntryChange = (event: EntryChange) => {
    cameFrom = event.from.index;
  };
  const onPopState = (event: PopStateEvent) => {
    if (performance.now() < returningUntil) {
      returningUntil = 0;
      event.stopImmediatePropagation();
      return;
    }
    if (!guard || guard(new URL(window.location.href))) return;
    event.stopImmediatePropagation();
    const now = navigation?.currentEntry?.index;
    const delta = cameFrom !== null && now !== undefined ? cameFrom - now : 1;
    returningUntil = performance.now() + 1000;
    // Never go(0): that reloads the page, edits and all.
    window.history.go(delta === 0 ? 1 : delta);
  };
  window.addEventListener("popstate", onPopState);
  navigation?.addEventListener("currententrychange", onEntryChange);
  return () => {
    window.removeEventListener("popstate", onPopState);
    navigation?.removeEventListener("currententrychange", onEntryChange);
  };
}
