"use client";
// What the settings editors' fields share: the compact input look, and the error line under a field
// ("{label}: {message}", announced, and pointed at by the input's aria-describedby).
import { useEffect, useRef } from "react";
import { inputBaseClass } from "../ui/action-form";

export const editorInputClass = `${inputBaseClass} w-full px-2.5 py-1.5`;

export function FieldError({ id, label, error }: { id: string; label: string; error?: string }) {
  const line = useRef<HTMLParagraphElement>(null);
  // The error of the field being typed in is scrolled into view whole, clear of the sticky save bar below
  // (its scroll margin): a field at the viewport's bottom edge would otherwise have its error under the bar.
  useEffect(() => {
    const describedBy = document.activeElement?.getAttribute("aria-describedby")?.split(/\s+/) ?? [];
    if (error && describedBy.includes(id)) line.current?.scrollIntoView({ block: "nearest" });
  }, [id, error]);
  return error ? (
    <p ref={line} id={id} role="alert" className="mt-1 scroll-mb-32 text-xs text-rose-700 dark:text-rose-400">
      {label}: {error}
    </p>
  ) : null;
}
