// Narrowing the audit trail: one kind of entries, part of who did them. A plain GET form (works without
// JavaScript; the address keeps the filters, so a filtered trail can be linked and paged).
import Link from "next/link";
import { AUDIT_KINDS, type AuditKind } from "@/lib/gates/audit-kinds";
import { buttonClass } from "../ui/button";
import { inputClass } from "../ui/input-classes";

export function AuditFilters({ workId, kind, who }: { workId?: string; kind?: AuditKind; who?: string }) {
  const clear = workId ? `/audit?${new URLSearchParams({ workId })}` : "/audit";
  return (
    <form
      // Drawn anew when the address's filters change (Clear filters, Back): the fields show what is applied.
      key={`${kind ?? ""}\n${who ?? ""}`}
      method="get"
      action="/audit"
      aria-label="Filter the audit trail"
      className="mb-4 flex flex-wrap items-end gap-2"
    >
      {workId ? <input type="hidden" name="workId" value={workId} /> : null}
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">What</span>
        <select name="kind" defaultValue={kind ?? ""} className={`${inputClass} w-56`}>
          <option value="">Everything</option>
          {/* A Work's trail holds no sign-ins or tokens: that kind is offered on the whole trail only. */}
          {AUDIT_KINDS.filter((k) => !workId || k.id !== "access").map((k) => (
            <option key={k.id} value={k.id}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">Who</span>
        <input
          name="who"
          type="search"
          defaultValue={who ?? ""}
          placeholder="part of an email"
          maxLength={200}
          className={`${inputClass} w-56`}
        />
      </label>
      <button type="submit" className={buttonClass("secondary")}>
        Filter
      </button>
      {kind || who ? (
        <Link href={clear} className="pb-2 text-sm font-medium text-sky-700 hover:underline dark:text-sky-400">
          Clear filters
        </Link>
      ) : null}
    </form>
  );
}
