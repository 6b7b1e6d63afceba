"use client";
// The browser's Back and Forward, held while a page has edits to lose. The URL has already changed when
// `popstate` comes, and the router acts on that event at once (it renders the page the history went to, which
// unmounts the editor), so this listener must hear it first: it is installed from the root of the app, whose
// effect runs before the router's (a child's effects run before its parent's), and it is the only one. While a
// page has set a guard that says no (the person chose to stay), the router never hears of the traversal, and
// the history is taken back to where it was — as far as it came, told by the entry it came from, which the
// Navigation API (where the browser has it) names just before `popstate`; without it, the page's entry is put
// back on top. The return is kept from the router too.
type Guard = (to: URL) => boolean;
type EntryChange = { from: { index: number } };
type Navigation = {
  currentEntry?: { index: number } | null;
  addEventListener(type: "currententrychange", listener: (event: EntryChange) => void): void;
  removeEventListener(type: "currententrychange", listener: (event: EntryChange) => void): void;
};

// The guard, and the page it keeps: its address and its history entry's state (the router's, as it was).
type Held = { mayLeave: Guard; url: string; state: unknown };
let held: Held | null = null;

// `mayLeave(to)` answers whether the history may go to `to` (asking the person if need be). Called again
// whenever the page's address changes (another section of the same settings), so the address kept is current.
// Returns the way to take it off again (which leaves a later page's guard alone).
export function guardHistory(mayLeave: Guard): () => void {
  const mine: Held = { mayLeave, url: window.location.href, state: window.history.state };
  held = mine;
  return () => {
    if (held === mine) held = null;
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
    if (!held || held.mayLeave(new URL(window.location.href))) return;
    event.stopImmediatePropagation();
    const now = navigation?.currentEntry?.index;
    if (cameFrom !== null && now !== undefined && cameFrom !== now) {
      returningUntil = performance.now() + 1000;
      window.history.go(cameFrom - now);
      return;
    }
    // Without the Navigation API the way back is not known (Back or Forward, how far): the page's own entry is
    // put back on top instead — its address and the router's state, which the router never saw change (the
    // entries beyond it are dropped, as after any new page). No popstate comes of it.
    window.history.pushState(held.state, "", held.url);
  };
  window.addEventListener("popstate", onPopState);
  navigation?.addEventListener("currententrychange", onEntryChange);
  return () => {
    window.removeEventListener("popstate", onPopState);
    navigation?.removeEventListener("currententrychange", onEntryChange);
  };
}
