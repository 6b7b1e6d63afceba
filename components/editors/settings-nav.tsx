"use client";
// The Work settings page's side navigation: one link per section (its own URL), the current one marked,
// and the sections with unsaved edits or problems flagged so nothing typed is forgotten. On a phone it is
// a wrapped row of links above the section.
import Link from "next/link";
import type { SettingsPageSection } from "./settings-sections";
import { SETTINGS_PAGE_SECTIONS } from "./settings-sections";

type Props = {
  workId: string;
  active: SettingsPageSection;
  unsaved: ReadonlySet<string>;
  withProblems: ReadonlySet<string>;
};

// On a phone each link is a bordered pill; on a wide screen a plain row of the side list.
const LINK = "flex items-center justify-between gap-2 rounded-md border px-2.5 py-1.5 text-sm";
const ACTIVE = [
  "border-sky-500 bg-sky-50 font-semibold text-sky-900 dark:bg-sky-950/50 dark:text-sky-100",
  "lg:border-transparent lg:dark:border-transparent",
].join(" ");
const INACTIVE = [
  "border-zinc-200 text-zinc-700 hover:bg-zinc-100 dark:border-zinc-800 dark:text-zinc-300 dark:hover:bg-zinc-800",
  "lg:border-transparent lg:dark:border-transparent",
].join(" ");

export function SettingsNav({ workId, active, unsaved, withProblems }: Props) {
  return (
    <nav aria-label="Settings sections" className="lg:sticky lg:top-4 lg:self-start">
      <ul className="flex flex-wrap gap-1.5 lg:flex-col lg:gap-0.5">
        {SETTINGS_PAGE_SECTIONS.map((s) => {
          const isActive = s.id === active;
          const href = `/works/${workId}/settings/${s.id}`;
          const flag = withProblems.has(s.id) ? "problems" : unsaved.has(s.id) ? "unsaved" : null;
          return (
            <li key={s.id}>
              <Link
                href={href}
                aria-current={isActive ? "page" : undefined}
                className={`${LINK} ${isActive ? ACTIVE : INACTIVE}`}
              >
                <span>{s.label}</span>
                {flag ? (
                  <span
                    className={`rounded px-1 text-xs font-medium ${
                      flag === "problems"
                        ? "bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-200"
                        : "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
                    }`}
                  >
                    {flag === "problems" ? "problems" : "unsaved"}
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
