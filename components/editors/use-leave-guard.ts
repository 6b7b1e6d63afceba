"use client";
// Unsaved edits are not lost by leaving: closing or reloading the tab asks (the browser's own prompt), and so
// do following a link out of the editor and the browser's Back or Forward to a page outside it (a confirm
// dialog before the app navigates; Back and Forward through components/layout/history-guard.ts). Pages within
// `stayWithin` (the other sections of the same settings, which keep the edits) go ahead.
import { usePathname } from "next/navigation";
import { useEffect } from "react";
import { guardHistory } from "../layout/history-guard";

const LEAVE_QUESTION = "Leave this page? Your changes here are not saved.";

export function useLeaveGuard(isDirty: boolean, stayWithin?: string): void {
  // The address the history guard keeps follows the page (the settings' sections change it).
  const pathname = usePathname();
  useEffect(() => {
    if (!isDirty) return;
    const page = pathname;
    // A destination the edits survive: this page, or another section of the same settings.
    const keepsEdits = (to: URL) =>
      to.pathname === page ||
      (!!stayWithin && (to.pathname === stayWithin || to.pathname.startsWith(`${stayWithin}/`)));
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    // Capture, on the document: before the app's own link handler, which would navigate at once.
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.target === "_blank" || link.hasAttribute("download")) return;
      const to = new URL(link.href, window.location.href);
      if (to.origin !== window.location.origin) return;
      if (to.pathname === window.location.pathname && to.search === window.location.search) return;
      if (keepsEdits(to)) return;
      if (window.confirm(LEAVE_QUESTION)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener("beforeunload", onUnload);
    document.addEventListener("click", onClick, true);
    const unguard = guardHistory((to) => keepsEdits(to) || window.confirm(LEAVE_QUESTION));
    return () => {
      window.removeEventListener("beforeunload", onUnload);
      document.removeEventListener("click", onClick, true);
      unguard();
    };
  }, [isDirty, stayWithin, pathname]);
}
