// Who is signed in, with their tokens, the admin pages (on small screens) and sign-out.
import Link from "next/link";
import { MenuDetails } from "../ui/menu-details";
import type { HeaderUser } from "./site-header";

export function UserMenu({ user, signOut }: { user: HeaderUser; signOut: () => Promise<void> }) {
  const initials = user.name
    .split(/\s+/)
    .map((w) => w[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return (
    <MenuDetails className="relative">
      <summary
        aria-label={`Account: ${user.name}`}
        className={
          "flex cursor-pointer list-none items-center gap-2 rounded-full p-0.5 pr-2 " +
          "hover:bg-zinc-100 dark:hover:bg-zinc-800 [&::-webkit-details-marker]:hidden"
        }
      >
        {/* The initials are the avatar's picture (drawn by CSS), so the menu's name is the person's name. */}
        <span
          aria-hidden
          data-initials={initials}
          className={
            "grid size-7 place-items-center rounded-full bg-sky-700 text-xs font-semibold " +
            "text-white before:content-[attr(data-initials)]"
          }
        />
        <span className="hidden max-w-40 truncate sm:inline">{user.name}</span>
      </summary>
      <div
        className={
          "absolute right-0 mt-2 w-60 overflow-hidden rounded-lg border border-zinc-200 bg-white " +
          "text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        }
      >
        <div className="border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
          <div className="font-medium">{user.name}</div>
          <div className="truncate text-xs text-zinc-500 dark:text-zinc-400">
            {user.email}
            {user.isAdmin ? " · admin" : ""}
          </div>
        </div>
        <Link href="/settings/tokens" className="block px-3 py-2 hover:bg-zinc-50 dark:hover:bg-zinc-800">
          API tokens
        </Link>
        <Link href="/settings/password" className="block px-3 py-2 hover:bg-zinc-50 dark:hover:bg-zinc-800">
          Password
        </Link>
        {user.isAdmin ? (
          <Link href="/admin/users" className="block px-3 py-2 hover:bg-zinc-50 sm:hidden dark:hover:bg-zinc-800">
            People
          </Link>
        ) : null}
        {user.isAdmin ? (
          <Link href="/admin/workers" className="block px-3 py-2 hover:bg-zinc-50 sm:hidden dark:hover:bg-zinc-800">
            Workers
          </Link>
        ) : null}
        {user.isAdmin ? (
          <Link href="/audit" className="block px-3 py-2 hover:bg-zinc-50 sm:hidden dark:hover:bg-zinc-800">
            Audit
          </Link>
        ) : null}
        <form action={signOut} className="border-t border-zinc-200 dark:border-zinc-800">
          <button type="submit" className="block w-full px-3 py-2 text-left hover:bg-zinc-50 dark:hover:bg-zinc-800">
            Sign out
          </button>
        </form>
      </div>
    </MenuDetails>
  );
}
