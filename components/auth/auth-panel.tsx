// The signed-out pages (sign in, first admin): the mark, a heading, a line of introduction, the form.
import { GateIcon } from "../ui/icons";

const MARK = "grid size-11 place-items-center rounded-xl text-2xl";
const MARK_COLOURS = "bg-zinc-900 text-white dark:bg-white dark:text-zinc-900";

export function AuthPanel({ title, intro, children }: { title: string; intro?: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto mt-8 max-w-sm sm:mt-16">
      <div className="mb-6 flex flex-col items-center gap-3 text-center">
        <span className={`${MARK} ${MARK_COLOURS}`}>
          <GateIcon />
        </span>
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        {intro ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{intro}</p> : null}
      </div>
      <div className="rounded-xl border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        {children}
      </div>
    </div>
  );
}
