// What the settings editors' fields share: the compact input look, and the error line under a field
// ("{label}: {message}", announced, and pointed at by the input's aria-describedby).
import { inputBaseClass } from "../ui/action-form";

export const editorInputClass = `${inputBaseClass} w-full px-2.5 py-1.5`;

export function FieldError({ id, label, error }: { id: string; label: string; error?: string }) {
  return error ? (
    <p id={id} role="alert" className="mt-1 text-xs text-rose-700 dark:text-rose-400">
      {label}: {error}
    </p>
  ) : null;
}
