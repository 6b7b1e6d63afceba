"use client";
// "Attempt n of m", and a way to look at earlier attempts.
import type { Gate } from "@/lib/gates/gate";

const DOT: Record<Gate, string> = {
  green: "bg-emerald-500",
  red: "bg-rose-500",
  running: "bg-sky-500 animate-pulse",
  pending: "bg-zinc-400",
  off: "bg-zinc-400",
  stopped: "bg-zinc-500",
};

// The attempt on screen is the dark button.
const SHOWN = "bg-zinc-900 text-white dark:bg-white dark:text-zinc-900";
const NOT_SHOWN = "bg-white text-zinc-700 hover:bg-zinc-50 dark:bg-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800";

export function AttemptSwitcher({
  attempts,
  selected,
  max,
  onSelect,
}: {
  attempts: { n: number; gate: Gate }[];
  selected: number;
  max: number;
  onSelect: (n: number) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="text-sm font-medium" data-testid="attempt-counter">
        Attempt {selected} of {max}
      </span>
      {attempts.length > 1 ? (
        <fieldset
          aria-label="Attempts"
          className="inline-flex overflow-hidden rounded-md border border-zinc-200 dark:border-zinc-700"
        >
          {attempts.map((a) => (
            <button
              key={a.n}
              type="button"
              aria-pressed={a.n === selected}
              aria-label={`Attempt ${a.n} (${a.gate})`}
              onClick={() => onSelect(a.n)}
              className={
                // The outline inside the button: the group's clipped frame would hide one drawn outside.
                `flex items-center gap-1.5 px-2.5 py-1 text-xs font-medium tabular-nums ` +
                `focus-visible:-outline-offset-2 ` +
                `${a.n === selected ? SHOWN : NOT_SHOWN}`
              }
            >
              <span className={`size-1.5 rounded-full ${DOT[a.gate]}`} />
              {a.n}
            </button>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}
