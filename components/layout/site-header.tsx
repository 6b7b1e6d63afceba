// The top bar: the mark, the main sections, and (with accounts) who is signed in.
import Link from "next/link";
import { GateIcon } from "../ui/icons";

export function SiteHeader({ children }: { children?: React.ReactNode }) {
  return (
    <header className="sticky top-0 z-30 border-b border-zinc-200 bg-white/85 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/85">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-6 px-4 sm:px-6">
        <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
          <span className="grid size-7 place-items-center rounded-md bg-zinc-900 text-white dark:bg-white dark:text-zinc-900">
            <GateIcon />
          </span>
          <span>Gatehouse</span>
        </Link>
        <nav aria-label="Main" className="flex items-center gap-1 text-sm">
          <Link href="/" className="rounded-md px-2.5 py-1.5 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-white">
            Inbox
          </Link>
          <Link href="/works" className="rounded-md px-2.5 py-1.5 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-white">
            Works
          </Link>
        </nav>
        <div className="ml-auto flex items-center gap-3 text-sm">{children}</div>
      </div>
    </header>
  );
}
