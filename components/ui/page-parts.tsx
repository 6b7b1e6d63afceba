// Page furniture: breadcrumbs, a page header, sections, empty states, the not-found panel.
import Link from "next/link";
import { buttonClass } from "./button";
import { ChevronRightIcon } from "./icons";

export function Breadcrumbs({ items }: { items: { label: string; href?: string }[] }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-3 text-sm text-zinc-500 dark:text-zinc-400">
      <ol className="flex flex-wrap items-center gap-1">
        {items.map((item, i) => (
          // A long name (a Work's, pasted in whole) is cut to one line, whole on hover: the trail stays a trail.
          <li key={i} className="flex min-w-0 max-w-full items-center gap-1">
            {i > 0 ? <ChevronRightIcon className="shrink-0 text-zinc-400" /> : null}
            {item.href ? (
              <Link
                href={item.href}
                title={item.label}
                className={
                  "max-w-60 truncate py-0.5 hover:text-zinc-900 hover:underline sm:max-w-md dark:hover:text-white"
                }
              >
                {item.label}
              </Link>
            ) : (
              <span aria-current="page" className="truncate text-zinc-700 dark:text-zinc-300">
                {item.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function PageHeader({
  title,
  eyebrow,
  meta,
  actions,
}: {
  title: React.ReactNode;
  eyebrow?: React.ReactNode;
  meta?: React.ReactNode;
  actions?: React.ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 [overflow-wrap:anywhere]">
        {eyebrow ? <div className="mb-1 text-sm font-medium text-zinc-500 dark:text-zinc-400">{eyebrow}</div> : null}
        <h1 className="text-2xl font-semibold tracking-tight text-balance sm:text-[1.7rem]">{title}</h1>
        {meta ? (
          <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-zinc-600 dark:text-zinc-400">
            {meta}
          </div>
        ) : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

export function Section({
  title,
  actions,
  children,
  id,
  description,
}: {
  title: React.ReactNode;
  actions?: React.ReactNode;
  children: React.ReactNode;
  id?: string;
  description?: React.ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={id ? `${id}-title` : undefined} className="mb-8">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={id ? `${id}-title` : undefined} className="text-base font-semibold tracking-tight">
            {title}
          </h2>
          {description ? <p className="mt-0.5 text-sm text-zinc-500 dark:text-zinc-400">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

// The white panel cards and lists sit on (light and dark).
const surfaceClass = "rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900";
// A list of rows on that panel, divided by hairlines.
export const rowListClass = `divide-y divide-zinc-200 overflow-hidden dark:divide-zinc-800 ${surfaceClass}`;

export function Card({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={`${surfaceClass} shadow-sm${className ? ` ${className}` : ""}`} {...props} />;
}

export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 px-6 py-10 text-center dark:border-zinc-700">
      <p className="font-medium">{title}</p>
      {children ? <div className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{children}</div> : null}
    </div>
  );
}

export function Pill({
  children,
  tone = "zinc",
  title,
}: {
  children: React.ReactNode;
  tone?: "zinc" | "sky" | "violet" | "amber" | "emerald";
  title?: string;
}) {
  const tones = {
    zinc: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
    sky: "bg-sky-50 text-sky-800 dark:bg-sky-950 dark:text-sky-300",
    violet: "bg-violet-50 text-violet-800 dark:bg-violet-950 dark:text-violet-300",
    amber: "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-300",
    emerald: "bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  };
  return (
    <span
      title={title}
      className={`inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

// What a not-found page shows: what is missing, why it may be, and the way back.
export function NotFoundPanel({
  title,
  text,
  href,
  linkLabel,
}: {
  title: string;
  text: string;
  href: string;
  linkLabel: string;
}) {
  return (
    <Card className="mx-auto max-w-lg p-6 text-center">
      <h1 className="text-lg font-semibold">{title}</h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{text}</p>
      <Link href={href} className={`mt-4 ${buttonClass("secondary")}`}>
        {linkLabel}
      </Link>
    </Card>
  );
}
