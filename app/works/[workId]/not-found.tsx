import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-lg rounded-lg border border-zinc-200 bg-white p-6 text-center shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
      <h1 className="text-lg font-semibold">No such Work</h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">It does not exist, or it belongs to a Work you have no role on.</p>
      <Link href="/works" className={`mt-4 ${buttonClass("secondary")}`}>See your Works</Link>
    </div>
  );
}
