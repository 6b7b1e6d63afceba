// The gate: green, red, running, pending, off or stopped (ended before it was decided), and "inconclusive" for
// a run that ended so (whatever gate its last attempt left). "Nothing required" is said next to a green gate
// that verified nothing, so an empty gate never passes for a verified one.
import { type Gate, gateShown, type ShownGate } from "@/lib/gates/gate";
import { CheckIcon, CrossIcon, DotIcon, SkipIcon, Spinner } from "../ui/icons";

const LOOK: Record<ShownGate, { label: string; className: string; icon: React.ReactNode }> = {
  green: {
    label: "Gate green",
    className: "bg-emerald-700 text-white dark:bg-emerald-500 dark:text-emerald-950",
    icon: <CheckIcon />,
  },
  red: {
    label: "Gate red",
    className: "bg-rose-600 text-white dark:bg-rose-400 dark:text-rose-950",
    icon: <CrossIcon />,
  },
  running: {
    label: "Running",
    className: "bg-sky-700 text-white dark:bg-sky-500 dark:text-sky-950",
    icon: <Spinner />,
  },
  pending: {
    label: "Pending",
    className: "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
    icon: <DotIcon />,
  },
  // Ended before its gate was decided (a cancel): no required check had failed by then.
  stopped: {
    label: "Stopped",
    className: "bg-zinc-600 text-white dark:bg-zinc-400 dark:text-zinc-950",
    icon: <SkipIcon />,
  },
  inconclusive: {
    label: "Inconclusive",
    className: "bg-amber-200 text-amber-950 dark:bg-amber-400 dark:text-amber-950",
    icon: <DotIcon />,
  },
  off: {
    label: "Checks off",
    className: "bg-zinc-200 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400",
    icon: <SkipIcon />,
  },
};

export function GateChip({
  gate: attemptGate,
  ending = null,
  isNothingRequired = false,
  size = "md",
}: {
  gate: Gate;
  // The run's ending, so an inconclusive run's chip says inconclusive.
  ending: string | null;
  isNothingRequired?: boolean;
  size?: "sm" | "md";
}) {
  const gate = gateShown(attemptGate, ending);
  const look = LOOK[gate];
  const pad = size === "sm" ? "px-2 py-0.5 text-xs" : "px-3 py-1 text-sm";
  return (
    <span className="inline-flex items-center gap-2">
      <span
        role="status"
        aria-label={look.label}
        data-gate={gate}
        className={
          `inline-flex items-center gap-1.5 rounded-full font-semibold whitespace-nowrap shadow-sm ` +
          `${pad} ${look.className}`
        }
      >
        {look.icon}
        {look.label}
      </span>
      {gate === "green" && isNothingRequired ? (
        <span
          className={
            "rounded-full border border-amber-400/60 px-2 py-0.5 text-xs font-medium " +
            "text-amber-700 dark:text-amber-300"
          }
        >
          nothing required
        </span>
      ) : null}
    </span>
  );
}
