// A check's log tail: the last lines of its output, colours rendered, as text.
import Link from "next/link";
import { parseAnsiLines } from "@/lib/ansi/parse-ansi";
import { formatBytes } from "@/lib/runner/output/text";
import { AnsiLine } from "./ansi-line";

export function LogTail({ text, totalBytes, note, fullLogHref }: { text: string | null; totalBytes: number | null; note: string | null; fullLogHref: string | null }) {
  const lines = parseAnsiLines(text ?? "");
  const isPartial = (totalBytes ?? 0) > 16 * 1024;
  return (
    <div className="overflow-hidden rounded-md border border-zinc-800 bg-zinc-950 text-zinc-200">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-800 px-3 py-1.5 text-xs text-zinc-400">
        <span>
          {lines.length === 0 ? "No output" : isPartial ? `Last 16 KB of ${formatBytes(totalBytes ?? 0)}` : `${lines.length} line${lines.length === 1 ? "" : "s"}`}
          {note ? <span className="ml-2 text-amber-400">· log cut (see note)</span> : null}
        </span>
        {fullLogHref ? (
          <Link href={fullLogHref} className="font-medium text-sky-400 hover:text-sky-300">
            Full log →
          </Link>
        ) : null}
      </div>
      {lines.length > 0 ? (
        <pre className="max-h-96 overflow-auto px-3 py-2 font-mono text-xs leading-5 whitespace-pre">
          {lines.map((segments, i) => (
            <div key={i}>
              <AnsiLine segments={segments} />
            </div>
          ))}
        </pre>
      ) : null}
    </div>
  );
}
