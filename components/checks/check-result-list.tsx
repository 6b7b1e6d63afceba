"use client";
// An attempt's check rows, in the order they ran or grouped by kind (build, test, lint, typecheck, custom).
import { CHECK_KINDS } from "@/lib/gates/check-kinds";
import { isProofRow } from "@/lib/gates/proof-ids";
import { isReportsOnlyWarning } from "@/lib/gates/row-warning";
import { CheckResultRow, type CheckResultView } from "./check-result-row";

type Props = {
  results: CheckResultView[];
  grouped: boolean;
  label: string;
  hrefFor: (r: CheckResultView) => string | null;
  rowKey: (r: CheckResultView) => string;
  // Which rows are open, and the reader opening or closing one (the run page keeps them in its address).
  isOpen: (r: CheckResultView) => boolean;
  onOpenChange: (r: CheckResultView, isOpen: boolean) => void;
};

// The order in use is the pressed half of the toggle.
// The outline inside the button: the group's clipped, rounded frame would hide one drawn outside it.
const SEGMENT = "px-2.5 py-1 font-medium focus-visible:-outline-offset-2";
const PRESSED = "bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white";
const NOT_PRESSED = "bg-white text-zinc-600 hover:bg-zinc-50 dark:bg-zinc-900 dark:text-zinc-400";

// The checks, then the proof rows (ids starting with "_") under their own heading.
export function CheckResultList({ results, grouped, label, hrefFor, rowKey, isOpen, onOpenChange }: Props) {
  // A reports-only row that did not pass reads as a warning, whatever the run's ending.
  const rows = (list: CheckResultView[]) =>
    list.map((r) => (
      <CheckResultRow
        key={rowKey(r)}
        result={r}
        fullLogHref={hrefFor(r)}
        isWarning={isReportsOnlyWarning(r)}
        isOpen={isOpen(r)}
        onOpenChange={(open) => onOpenChange(r, open)}
      />
    ));
  const proof = results.filter(isProofRow);
  const checks = results.filter((r) => !isProofRow(r));
  const flaky = checks.filter((r) => r.flaky).length;
  return (
    <>
      {flaky > 0 ? (
        <p className="bg-amber-50 px-4 py-1.5 text-xs text-amber-900 dark:bg-amber-950/50 dark:text-amber-200">
          {flaky} flaky: passed after failing on the same commit
        </p>
      ) : null}
      <Checks checks={checks} grouped={grouped} label={label} rows={rows} />
      {proof.length > 0 ? (
        <section aria-label="Proof" data-testid="proof-rows" className="border-t border-zinc-200 dark:border-zinc-800">
          <h3
            className={
              "bg-zinc-50 px-4 py-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase " +
              "dark:bg-zinc-900/80 dark:text-zinc-400"
            }
          >
            Proof
            <span className="ml-2 font-normal tracking-normal normal-case">
              whether the green means the work was done
            </span>
          </h3>
          <ol className="divide-y divide-zinc-200 dark:divide-zinc-800">{rows(proof)}</ol>
        </section>
      ) : null}
    </>
  );
}

function Checks({
  checks: results,
  grouped,
  label,
  rows,
}: {
  checks: CheckResultView[];
  grouped: boolean;
  label: string;
  rows: (list: CheckResultView[]) => React.ReactNode;
}) {
  if (!grouped) {
    return (
      <ol className="divide-y divide-zinc-200 dark:divide-zinc-800" aria-label={label}>
        {rows(results)}
      </ol>
    );
  }
  return (
    <section aria-label={label}>
      {CHECK_KINDS.filter((kind) => results.some((r) => r.kind === kind)).map((kind) => (
        <section
          key={kind}
          aria-label={`${kind} checks`}
          className="border-t border-zinc-200 first:border-t-0 dark:border-zinc-800"
        >
          <h3
            className={
              "bg-zinc-50 px-4 py-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase " +
              "dark:bg-zinc-900/80 dark:text-zinc-400"
            }
          >
            {kind}
          </h3>
          <ol className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {rows(results.filter((r) => r.kind === kind))}
          </ol>
        </section>
      ))}
    </section>
  );
}

export function GroupToggle({ grouped, onChange }: { grouped: boolean; onChange: (grouped: boolean) => void }) {
  return (
    <fieldset
      aria-label="Order of checks"
      className="inline-flex overflow-hidden rounded-md border border-zinc-200 text-xs dark:border-zinc-700"
    >
      {[false, true].map((value) => (
        <button
          key={String(value)}
          type="button"
          aria-pressed={grouped === value}
          onClick={() => onChange(value)}
          className={`${SEGMENT} ${grouped === value ? PRESSED : NOT_PRESSED}`}
        >
          {value ? "By kind" : "As run"}
        </button>
      ))}
    </fieldset>
  );
}
