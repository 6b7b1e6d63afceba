// A run with no agent waits for a person to hand in the fix: how, said where they are looking.
import Link from "next/link";
import { ThisSite } from "./this-site";

export function WaitingForAFix({
  taskKey,
  branch,
  nextAttempt,
}: {
  taskKey: string;
  branch: string;
  nextAttempt: number;
}) {
  const code = "rounded bg-white/70 px-1 font-mono text-xs dark:bg-zinc-900/70";
  return (
    <section
      aria-labelledby="waiting-title"
      className={
        "mb-8 rounded-lg border border-sky-300 bg-sky-50 p-4 text-sm text-sky-950 shadow-sm " +
        "dark:border-sky-800/60 dark:bg-sky-950/40 dark:text-sky-100"
      }
    >
      <h2 id="waiting-title" className="font-semibold">
        Hand in a fix for attempt {nextAttempt}
      </h2>
      <p className="mt-1">
        This Work runs no agent: the fix is yours. In a clone of its repository, commit the fix and run{" "}
        <code className={code}>gatehouse gate {taskKey}</code>: it pushes the clone to the task&apos;s branch{" "}
        <code className={`${code} [overflow-wrap:anywhere]`}>{branch}</code>, runs the checks on it as attempt{" "}
        {nextAttempt} and prints what failed (exit 0 on green). An API token (
        <Link className="underline" href="/settings/tokens">
          make one
        </Link>
        ) logs the command in:{" "}
        <code className={`${code} [overflow-wrap:anywhere]`}>
          gatehouse login <ThisSite /> --token &lt;token&gt;
        </code>
        . The command comes with Gatehouse: <code className={code}>npm link</code> in a checkout of it puts{" "}
        <code className={code}>gatehouse</code> on your PATH.
      </p>
      <p className="mt-1">
        <strong className="font-medium">Run attempt {nextAttempt}</strong> runs the checks again on the task&apos;s
        checkout as it stands, for a check that may be flaky.
      </p>
    </section>
  );
}
