"use client";
// The verification profile's layers of a run, each its own section body: evidence (the `_evidence` row of
// each attempt) and the review (per criterion met · unverified · missing with what it pasted; where it
// disagrees with a check, both outputs side by side). Live while the run runs. Output is shown as text.
import { isRunLive, type AttemptJson, type RunJson } from "@/lib/api/run-json";
import { EVIDENCE } from "@/lib/gates/proof-ids";
import { VerdictBadge } from "../checks/verdict-badge";
import { Card, EmptyState, Pill } from "../ui/page-parts";
import { useRun } from "./use-run";

const STATUS_TONE = { met: "emerald", unverified: "amber", missing: "zinc" } as const;

function Output({ label, text }: { label: string; text: string | null | undefined }) {
  return (
    <div className="min-w-0">
      <p className="mb-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">{label}</p>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls, so the keyboard must reach it (WCAG 2.1.1)
        tabIndex={0}
        className={
          "max-h-64 overflow-auto rounded-md bg-zinc-50 px-3 py-2 font-mono text-xs " +
          "whitespace-pre-wrap dark:bg-zinc-950"
        }
      >
        {text?.trim() ? text : "(nothing)"}
      </pre>
    </div>
  );
}

export function EvidenceLayer({ initial }: { initial: RunJson }) {
  const { data: run } = useRun(initial);
  const rows = run.attempts.flatMap((a) => {
    const row = a.checks.find((c) => c.checkId === EVIDENCE);
    return row ? [{ n: a.n, row }] : [];
  });
  // The criteria are in the frozen checks from the start: a live run asks for them before any row exists.
  const criteria = run.checks.filter((c) => c.source === "added" && !c.hidden).map((c) => c.id);
  if (criteria.length === 0)
    return (
      <EmptyState title="No evidence asked">
        The task adds no acceptance check, so there is no criterion to show working.
      </EmptyState>
    );
  return (
    <Card>
      <p
        className={
          "border-b border-zinc-200 px-4 py-2 text-sm break-words text-zinc-700 " +
          "dark:border-zinc-800 dark:text-zinc-300"
        }
      >
        Criteria: {criteria.join(", ")}
      </p>
      {rows.length === 0 ? (
        <p className="px-4 py-3 text-sm text-zinc-600 dark:text-zinc-400">
          {isRunLive(run) ? "Checked after each attempt's checks." : "No attempt reached the evidence check."}
        </p>
      ) : (
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {rows.map(({ n, row }) => (
            <li key={n} className="flex flex-wrap items-center gap-3 px-4 py-3 text-sm">
              <span className="font-medium">Attempt {n}</span>
              <VerdictBadge verdict={row.verdict} />
              {/* Ids and paths have no spaces: let them wrap anywhere rather than spill out of the card. */}
              <span
                className={
                  "min-w-0 basis-full text-zinc-700 [overflow-wrap:anywhere] sm:basis-0 " +
                  "sm:flex-1 dark:text-zinc-300"
                }
              >
                {row.message}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function ReviewOfAttempt({ attempt }: { attempt: AttemptJson }) {
  const review = attempt.review;
  if (!review) return null;
  const discarded = review.tries.filter((t) => t.problem);
  return (
    <Card className="p-4" data-testid={`review-${attempt.n}`}>
      <div className="flex flex-wrap items-center gap-3">
        <h3 className="font-medium">Attempt {attempt.n}</h3>
        <Pill tone={review.outcome === "met" ? "emerald" : review.outcome === "short" ? "amber" : "violet"}>
          {review.outcome === "met"
            ? "all met"
            : review.outcome === "short"
              ? "short"
              : review.outcome === "disagreement"
                ? "disagrees with the checks"
                : "did not run"}
        </Pill>
        {review.score !== null ? (
          <span className="text-sm text-zinc-600 dark:text-zinc-400">score {review.score.toFixed(2)}</span>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{review.message}</p>
      {review.criteria.length > 0 ? (
        <ul className="mt-3 space-y-3">
          {review.criteria.map((c) => (
            <li key={c.id} className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
              <p className="flex flex-wrap items-center gap-2 text-sm">
                <code className="font-mono font-medium">{c.id}</code>
                <Pill tone={STATUS_TONE[c.status]}>{c.status}</Pill>
                {c.disagrees ? <Pill tone="violet">check: {c.check?.verdict}</Pill> : null}
                {c.command ? (
                  <span className="min-w-0 truncate font-mono text-xs text-zinc-600 dark:text-zinc-400">
                    ran: {c.command}
                  </span>
                ) : null}
              </p>
              {c.disagrees ? (
                <div className="mt-2 grid gap-3 md:grid-cols-2">
                  <Output label="The review's output" text={c.output} />
                  <Output label="The check's output" text={c.check?.output} />
                </div>
              ) : c.output ? (
                <div className="mt-2">
                  <Output label="The review's output" text={c.output} />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {review.gaps.length > 0 ? (
        <div className="mt-3 text-sm">
          <p className="font-medium">Gaps</p>
          <ul className="ml-5 list-disc text-zinc-700 dark:text-zinc-300">
            {review.gaps.map((g, i) => (
              <li key={i}>{g}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="mt-3 text-xs text-zinc-600 dark:text-zinc-400">
        {review.tries.length} {review.tries.length === 1 ? "try" : "tries"} · commands executed in the last:{" "}
        {review.tries.at(-1)?.executed.length ?? 0}
        {discarded.length ? ` · discarded: ${discarded.map((t) => `try ${t.n} (${t.problem})`).join("; ")}` : ""}
      </p>
    </Card>
  );
}

export function ReviewLayer({ initial }: { initial: RunJson }) {
  const { data: run } = useRun(initial);
  const reviewed = run.attempts.filter((a) => a.review).reverse();
  if (reviewed.length === 0)
    return (
      <EmptyState title="No review yet">
        {run.reviewCommand
          ? "The review runs after a green gate, when the task has acceptance checks."
          : "The Work has no review command."}
      </EmptyState>
    );
  return (
    <div className="space-y-4">
      {reviewed.map((a) => (
        <ReviewOfAttempt key={a.n} attempt={a} />
      ))}
    </div>
  );
}

export function MutationLayer({ initial }: { initial: RunJson }) {
  const { data: run } = useRun(initial);
  const attempts = run.attempts.filter((a) => a.mutation).reverse();
  if (attempts.length === 0)
    return <EmptyState title="No mutation run yet">The mutation floor runs after everything else is green.</EmptyState>;
  return (
    <div className="space-y-4">
      {attempts.map((a) => {
        const m = a.mutation!;
        return (
          <Card key={a.n} className="p-4" data-testid={`mutation-${a.n}`}>
            <div className="flex flex-wrap items-center gap-3">
              <h3 className="font-medium">Attempt {a.n}</h3>
              <VerdictBadge verdict={m.verdict} />
              {m.tool ? <Pill>{m.tool === "stryker" ? "Stryker" : "mutation command"}</Pill> : null}
            </div>
            <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{m.message}</p>
            {m.files.length > 0 ? (
              <ul className="mt-3 space-y-3">
                {m.files.map((f) => (
                  <li key={f.path} className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800">
                    <p className="flex flex-wrap items-center gap-2">
                      <code className="font-mono font-medium">{f.path}</code>
                      <span className="text-zinc-600 dark:text-zinc-400">
                        score {f.score ?? "n/a"} · killed {f.killed} · timeout {f.timeout} · survived {f.survived} · no
                        coverage {f.noCoverage}
                      </span>
                    </p>
                    {f.survivors.length > 0 ? (
                      <ul className="mt-2 space-y-1 font-mono text-xs">
                        {f.survivors.map((s, i) => (
                          <li key={`${s.line}-${s.mutator}-${i}`}>
                            line {s.line}: {s.mutator}
                            {s.replacement ? ` → ${s.replacement}` : ""}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
          </Card>
        );
      })}
    </div>
  );
}

export function RedTeamLayer({ initial }: { initial: RunJson }) {
  const { data: run } = useRun(initial);
  const attempts = run.attempts.filter((a) => a.redTeam).reverse();
  if (attempts.length === 0)
    return (
      <EmptyState title="No red team yet">
        {run.redTeamCommand ? "The red team runs after the review passes." : "The Work has no red-team command."}
      </EmptyState>
    );
  return (
    <div className="space-y-4">
      {attempts.map((a) => {
        const r = a.redTeam!;
        return (
          <Card key={a.n} className="p-4" data-testid={`redteam-${a.n}`}>
            <div className="flex flex-wrap items-center gap-3">
              <h3 className="font-medium">Attempt {a.n}</h3>
              <VerdictBadge verdict={r.verdict} />
              {r.committed ? <Pill tone="emerald">probes kept in {r.committed.slice(0, 10)}</Pill> : null}
            </div>
            <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{r.message}</p>
            {r.probes.length > 0 ? (
              <ul className="mt-3 space-y-3">
                {r.probes.map((p) => (
                  <li key={p.path} className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800">
                    <p className="flex flex-wrap items-center gap-2">
                      <code className="font-mono font-medium">{p.path}</code>
                      <VerdictBadge verdict={p.verdict} />
                    </p>
                    {p.verdict !== "passed" ? (
                      <div className="mt-2">
                        <Output label="What the probe printed" text={p.output} />
                      </div>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            {r.refused.length > 0 ? (
              <div className="mt-3 text-sm">
                <p className="font-medium">Refused (not probes)</p>
                <ul className="ml-5 list-disc font-mono text-xs text-zinc-700 dark:text-zinc-300">
                  {r.refused.map((f) => (
                    <li key={f.path}>
                      {f.path}: {f.reason}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {r.report ? (
              <div className="mt-3">
                <Output label="The red team's report" text={r.report} />
              </div>
            ) : null}
          </Card>
        );
      })}
    </div>
  );
}
