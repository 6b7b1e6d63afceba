import type { Metadata } from "next";
import Link from "next/link";
import { getPageActor } from "@/lib/auth/page-actor";
import { loadWorksOverview } from "@/lib/services/page-data";
import { EmptyState, PageHeader } from "@/components/ui/page-parts";
import { plural } from "@/lib/format";
import { NewWorkForm } from "@/components/works/new-work-form";
import { createWorkAction } from "./actions";

export const metadata: Metadata = { title: "Works" };

export default async function WorksPage() {
  const actor = await getPageActor();
  const works = await loadWorksOverview(actor);
  return (
    <>
      <PageHeader
        title="Works"
        meta="Each Work is one repository with its check defaults, policy and attempt budget."
        actions={actor.isAdmin ? <NewWorkForm create={createWorkAction} /> : null}
      />
      {works.length === 0 ? (
        <EmptyState title="No Works yet">
          {actor.isAdmin
            ? "Create one with New Work (or POST /api/works)."
            : "An admin gives you a role on a Work; it shows up here."}
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {works.map(({ work, taskCount }) => (
            <li key={work.id}>
              <Link
                href={`/works/${work.id}`}
                className={
                  "block h-full rounded-lg border border-zinc-200 bg-white p-4 shadow-sm " +
                  "transition hover:border-zinc-300 hover:shadow dark:border-zinc-800 " +
                  "dark:bg-zinc-900 dark:hover:border-zinc-700"
                }
              >
                <div className="flex items-start justify-between gap-3">
                  <h2 className="font-semibold">{work.name}</h2>
                  <span
                    className={
                      "rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-600 " +
                      "dark:bg-zinc-800 dark:text-zinc-400"
                    }
                  >
                    {work.keyPrefix}
                  </span>
                </div>
                <p className="mt-1 truncate font-mono text-xs text-zinc-500 dark:text-zinc-400">{work.repoUrl}</p>
                <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
                  {plural(taskCount, "task")} · {plural(work.checkDefaults.length, "check")} · policy{" "}
                  {work.checksPolicy} · {work.maxGateAttempts} attempts
                </p>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
