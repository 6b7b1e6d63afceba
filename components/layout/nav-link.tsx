"use client";
// A link of the top bar, marked as where the reader is (aria-current="page", and drawn so) when the page
// belongs to its section.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { isInSection } from "@/lib/pages/nav-sections";

const base = "rounded-md px-2.5 py-1.5 hover:bg-zinc-100 dark:hover:bg-zinc-800";
const here = "bg-zinc-100 font-medium text-zinc-900 dark:bg-zinc-800 dark:text-white";
const elsewhere = "text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white";

export function NavLink({ href, className = "", children }: { href: string; className?: string; children: string }) {
  const isHere = isInSection(usePathname() ?? "", href);
  return (
    <Link
      href={href}
      aria-current={isHere ? "page" : undefined}
      className={`${base} ${isHere ? here : elsewhere} ${className}`}
    >
      {children}
    </Link>
  );
}
