"use client";
// A <details> that behaves as a menu: it closes on Escape (focus back on its button), on a click or focus
// outside it, and once one of its links is followed (the layout it sits in stays on screen).
import { useEffect, useRef } from "react";

export function MenuDetails({ className, children }: { className?: string; children: React.ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const menu = ref.current;
      if (event.key !== "Escape" || !menu?.open) return;
      menu.open = false;
      menu.querySelector("summary")?.focus();
    };
    const onOutside = (event: Event) => {
      const menu = ref.current;
      if (menu?.open && event.target instanceof Node && !menu.contains(event.target)) menu.open = false;
    };
    // A link followed (by mouse or by Enter: both are clicks) closes it too.
    const onLink = (event: Event) => {
      const menu = ref.current;
      if (menu?.open && event.target instanceof Element && menu.contains(event.target) && event.target.closest("a"))
        menu.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onOutside);
    document.addEventListener("focusin", onOutside);
    document.addEventListener("click", onLink);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onOutside);
      document.removeEventListener("focusin", onOutside);
      document.removeEventListener("click", onLink);
    };
  }, []);
  return (
    <details ref={ref} className={className}>
      {children}
    </details>
  );
}
