"use client";
// Something failed while rendering: say so plainly and offer a retry.
import { buttonClass } from "@/components/ui/button";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div
      role="alert"
      className={
        "mx-auto max-w-lg rounded-lg border border-rose-200 bg-white p-6 text-center shadow-sm " +
        "dark:border-rose-900 dark:bg-zinc-900"
      }
    >
      <h1 className="text-lg font-semibold">This page could not be shown</h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        {error.message && !error.digest ? error.message : "Something went wrong on the server. It has been logged."}
        {error.digest ? <span className="mt-1 block font-mono text-xs">reference {error.digest}</span> : null}
      </p>
      <button type="button" onClick={reset} className={`mt-4 ${buttonClass("primary")}`}>
        Try again
      </button>
    </div>
  );
}
