// The top bar: the mark, the main sections for the signed-in person, and their menu.
import Link from "next/link";
import { GateIcon } from "../ui/icons";
import { NavLink } from "./nav-link";
import { UserMenu } from "./user-menu";

export type HeaderUser = { name: string; email: string; isAdmin: boolean };

export function SiteHeader({ user, signOut }: { user: HeaderUser | null; signOut: () => Promise<void> }) {
  return (
    <header
      className={
        "sticky top-0 z-30 border-b border-zinc-200 bg-white/85 backdrop-blur " +
        "dark:border-zinc-800 dark:bg-zinc-950/85"
      }
    >
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-4 sm:gap-6 sm:px-6">
        <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
          <span
            className={
              "grid size-7 place-items-center rounded-md bg-zinc-900 text-white dark:bg-white dark:text-zinc-900"
            }
          >
            <GateIcon />
          </span>
          {/* Named on a phone too, where only the icon shows. */}
          <span className="sr-only sm:not-sr-only">Gatehouse</span>
        </Link>
        {user ? (
          <nav aria-label="Main" className="flex items-center gap-0.5 text-sm">
            <NavLink href="/">Inbox</NavLink>
            <NavLink href="/works">Works</NavLink>
            {user.isAdmin ? (
              <NavLink href="/audit" className="hidden sm:inline">
                Audit
              </NavLink>
            ) : null}
            {user.isAdmin ? (
              <NavLink href="/admin/users" className="hidden sm:inline">
                People
              </NavLink>
            ) : null}
            {user.isAdmin ? (
              <NavLink href="/admin/workers" className="hidden sm:inline">
                Workers
              </NavLink>
            ) : null}
          </nav>
        ) : null}
        <div className="ml-auto flex items-center gap-3 text-sm">
          {user ? <UserMenu user={user} signOut={signOut} /> : null}
        </div>
      </div>
    </header>
  );
}
