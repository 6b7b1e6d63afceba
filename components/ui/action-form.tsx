"use client";
// A small form posting to a Server Action that answers { data } or { error }; errors are shown with the
// field they belong to, success with an optional message. Fields are plain inputs given as children.
import {
  cloneElement,
  createContext,
  isValidElement,
  startTransition,
  useActionState,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { isIssueOf, issuesByField, type FieldIssue } from "@/lib/gates/field-issues";
import { buttonClass, type ButtonVariant } from "./button";
import { InlineError } from "./inline-error";

type NamedField = { name: string; label: string };
// What a Field given its control's name needs from its form: the last answer's issues, the id of the line
// that shows its own, and a way to say it is there (so that line reads "Name: …", not the raw "name: …").
type FormFields = {
  issues: readonly FieldIssue[];
  errorId: (name: string) => string;
  add: (field: NamedField) => () => void;
};
const FormFieldsContext = createContext<FormFields | null>(null);
const NO_ISSUES: readonly FieldIssue[] = [];

type Props<T> = {
  action: (state: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;
  submitLabel: string;
  variant?: ButtonVariant;
  children?: React.ReactNode;
  className?: string;
  // From client components: render the answer. From server components (functions cannot cross to the
  // client): a text where {field} is replaced by that field of the answer.
  success?: (data: T) => React.ReactNode;
  successText?: string;
  ariaLabel?: string;
  // Shown beside the submit button (a Cancel, say).
  besideSubmit?: React.ReactNode;
};

export function ActionForm<T>({
  action,
  submitLabel,
  variant = "primary",
  children,
  className = "",
  success,
  successText,
  ariaLabel,
  besideSubmit,
}: Props<T>) {
  const [state, formAction, isPending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state?.data !== undefined) form.current?.reset();
    // A refused answer takes the person to the first field it names.
    else if (state?.error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [state]);
  const fieldErrors = state?.error?.fieldErrors ?? NO_ISSUES;
  const [named, setNamed] = useState<readonly NamedField[]>([]);
  const add = useCallback((field: NamedField) => {
    setNamed((fields) => [...fields, field]);
    return () => setNamed((fields) => fields.filter((f) => f !== field));
  }, []);
  const formId = useId();
  const errorId = useCallback((name: string) => `${formId}-${name}-error`, [formId]);
  const fields = useMemo(() => ({ issues: fieldErrors, errorId, add }), [fieldErrors, errorId, add]);
  // Issues of a named field are shown as that field's; the others (or the message) as the form's.
  // Shared out as the Work's General form shares its own (lib/gates/field-issues.ts): a field shows the first
  // issue at its path or under it.
  const { byField, rest } = issuesByField(
    fieldErrors,
    named.map((f) => f.name),
  );
  const ofFields = named.flatMap((f) => {
    const message = byField[f.name];
    return message === undefined ? [] : [{ ...f, message }];
  });
  return (
    <form
      ref={form}
      aria-label={ariaLabel}
      className={className}
      // Submitted by hand so a refused form keeps what was typed (a form action would clear it).
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        startTransition(() => formAction(data));
      }}
    >
      <div className="flex flex-wrap items-end gap-2">
        <FormFieldsContext value={fields}>{children}</FormFieldsContext>
        <button type="submit" disabled={isPending} className={buttonClass(variant)}>
          {isPending ? "…" : submitLabel}
        </button>
        {besideSubmit}
      </div>
      <div className="mt-2 space-y-1">
        {ofFields.map((f) => (
          <p key={f.name} id={errorId(f.name)} role="alert" className="text-sm text-rose-700 dark:text-rose-300">
            {f.label}: {f.message}
          </p>
        ))}
        {rest.length > 0 ? (
          <ul role="alert" className="text-sm text-rose-700 dark:text-rose-300">
            {rest.map((e) => (
              <li key={e.path + e.message}>
                {e.path ? `${e.path}: ` : ""}
                {e.message}
              </li>
            ))}
          </ul>
        ) : ofFields.length === 0 ? (
          <InlineError message={state?.error?.message ?? null} />
        ) : null}
        {state?.data !== undefined && success ? success(state.data) : null}
        {state?.data !== undefined && successText ? (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
            {successText.replace(/\{(\w+)\}/g, (_m, key: string) =>
              String((state.data as Record<string, unknown>)[key] ?? ""),
            )}
          </p>
        ) : null}
      </div>
    </form>
  );
}

// The input classes live in ./input-classes.ts: a constant exported from this client module reaches a
// server component as a client reference (its text a function's), not as the string.
export { inputBaseClass, inputBorderClass, inputClass } from "./input-classes";

// A label around its control: every caller passes the one input or select it names as children. Given the
// control's `name`, the form's errors for it are shown as this field's ("Label: rule", pointed at by the
// control's aria-describedby) instead of under the field's raw name.
// `hint`: said after the label, in a lighter voice (what leaving it empty means, say).
export function Field({
  label,
  name,
  hint,
  children,
}: {
  label: string;
  name?: string;
  hint?: React.ReactNode;
  children: React.ReactNode;
}) {
  const form = useContext(FormFieldsContext);
  const add = form?.add;
  useEffect(() => (name && add ? add({ name, label }) : undefined), [add, name, label]);
  const isInvalid = !!name && !!form?.issues.some((e) => isIssueOf(e, name));
  const control =
    isInvalid && isValidElement<React.AriaAttributes>(children)
      ? cloneElement(children, { "aria-invalid": true, "aria-describedby": form!.errorId(name) })
      : children;
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child each caller nests
    <label className="flex flex-col gap-1 text-sm font-medium">
      {hint ? (
        <span>
          {label} <span className="font-normal text-zinc-500 dark:text-zinc-400">{hint}</span>
        </span>
      ) : (
        label
      )}
      {control}
    </label>
  );
}
