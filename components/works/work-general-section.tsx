// The General section of a Work's settings (server-rendered): which Work this is — its name, the repository
// its tasks are checked out from and merged into, and its base branch. Admins edit them (the page passes the
// Server Action, bound to the Work); everyone else reads them and is told who changes them.
import type { ComponentProps } from "react";
import { Section } from "../ui/page-parts";
import { WorkGeneralForm } from "./work-general-form";

type Props = {
  work: ComponentProps<typeof WorkGeneralForm>["work"];
  // null: the reader may not change them.
  save: ComponentProps<typeof WorkGeneralForm>["save"] | null;
};

const DESCRIPTION = "Which Work this is: the repository its tasks are checked out from and merged into.";

export function WorkGeneralSection({ work, save }: Props) {
  return (
    <Section id="general" title="General" description={DESCRIPTION}>
      {save ? <WorkGeneralForm work={work} save={save} /> : <WorkIdentity work={work} />}
    </Section>
  );
}

function WorkIdentity({ work }: { work: Props["work"] }) {
  const rows = [
    ["Name", work.name, false],
    ["Repository", work.repoUrl, true],
    ["Base branch", work.baseBranch ?? "the repository's HEAD branch", work.baseBranch !== null],
  ] as const;
  return (
    <>
      <dl
        aria-label="Name and repository"
        className={
          "max-w-3xl divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white text-sm " +
          "dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900"
        }
      >
        {rows.map(([term, value, isCode]) => (
          <div key={term} className="grid gap-1 px-4 py-3 sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-3">
            <dt className="font-semibold">{term}</dt>
            <dd className={`min-w-0 [overflow-wrap:anywhere] ${isCode ? "font-mono" : ""}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
        An admin changes a Work&apos;s name, repository and base branch; a lead edits how its runs are checked.
      </p>
    </>
  );
}
