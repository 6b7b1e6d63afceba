// A check's verdict: its own colour and icon, and always its word, so it reads without colour too.
import type { Verdict } from "@/lib/gates/gate";
import {
  AlertIcon,
  CheckIcon,
  ClockIcon,
  CrossIcon,
  DotIcon,
  HollowIcon,
  SkipIcon,
  Spinner,
  StopIcon,
} from "../ui/icons";

const LOOK: Record<Verdict, { label: string; className: string; icon: React.ReactNode }> = {
  passed: {
    label: "Passed",
    className:
      "text-emerald-700 bg-emerald-50 ring-emerald-600/20 dark:text-emerald-300 " +
      "dark:bg-emerald-950/60 dark:ring-emerald-400/25",
    icon: <CheckIcon />,
  },
  failed: {
    label: "Failed",
    className: "text-rose-700 bg-rose-50 ring-rose-600/20 dark:text-rose-300 dark:bg-rose-950/60 dark:ring-rose-400/25",
    icon: <CrossIcon />,
  },
  // A test check that ran no test: it blocks like failed, in a colour of its own.
  hollow: {
    label: "Hollow",
    className:
      "text-violet-800 bg-violet-50 ring-violet-600/25 dark:text-violet-300 " +
      "dark:bg-violet-950/60 dark:ring-violet-400/25",
    icon: <HollowIcon />,
  },
  timeout: {
    label: "Timeout",
    className:
      "text-amber-800 bg-amber-50 ring-amber-600/25 dark:text-amber-300 dark:bg-amber-950/60 dark:ring-amber-400/25",
    icon: <ClockIcon />,
  },
  error: {
    label: "Error",
    className:
      "text-fuchsia-800 bg-fuchsia-50 ring-fuchsia-600/20 dark:text-fuchsia-300 " +
      "dark:bg-fuchsia-950/60 dark:ring-fuchsia-400/25",
    icon: <AlertIcon />,
  },
  skipped: {
    label: "Skipped",
    className:
      "text-zinc-600 bg-zinc-100 ring-zinc-500/20 dark:text-zinc-400 dark:bg-zinc-800/60 dark:ring-zinc-400/20",
    icon: <SkipIcon />,
  },
  running: {
    label: "Running",
    className: "text-sky-700 bg-sky-50 ring-sky-600/20 dark:text-sky-300 dark:bg-sky-950/60 dark:ring-sky-400/25",
    icon: <Spinner />,
  },
  queued: {
    label: "Queued",
    className: "text-zinc-500 bg-white ring-zinc-400/30 dark:text-zinc-400 dark:bg-zinc-900 dark:ring-zinc-500/30",
    icon: <DotIcon />,
  },
};

// A reports-only row that did not pass, whatever the run's ending (lib/gates/row-warning.ts): amber, "Warning".
const WARNING = {
  label: "Warning",
  className:
    "text-amber-900 bg-amber-50 ring-amber-600/30 dark:text-amber-200 dark:bg-amber-950/60 dark:ring-amber-400/30",
  icon: <AlertIcon />,
};

// A check the stop cut short after it started (lib/gates/row-warning.ts): skipped, but not "Skipped".
const STOPPED = {
  label: "Stopped",
  className: "text-zinc-700 bg-zinc-100 ring-zinc-600/30 dark:text-zinc-300 dark:bg-zinc-800/60 dark:ring-zinc-400/30",
  icon: <StopIcon />,
};

export function VerdictBadge({
  verdict,
  isWarning = false,
  isStopped = false,
}: {
  verdict: Verdict;
  isWarning?: boolean;
  isStopped?: boolean;
}) {
  const look = isWarning ? WARNING : isStopped ? STOPPED : LOOK[verdict];
  return (
    <span
      data-verdict={verdict}
      data-warning={isWarning ? "" : undefined}
      data-stopped={isStopped ? "" : undefined}
      title={
        isWarning
          ? `${LOOK[verdict].label} — reports only: it does not decide the gate`
          : isStopped
            ? "Started, then stopped with the run: not run to the end"
            : undefined
      }
      className={
        `inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ` +
        `ring-inset whitespace-nowrap ${look.className}`
      }
    >
      <span className="text-[0.95em]">{look.icon}</span>
      {look.label}
    </span>
  );
}
