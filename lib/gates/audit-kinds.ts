// What the audit trail can be narrowed to: kinds of entries, each a set of action prefixes (an action is
// "area.verb": auth.signin, run.dispatch, task.merge.refused). Every action the trail records falls in one
// kind (lib/gates/audit-kinds.test.ts holds that against the actions the code writes).
export const AUDIT_KINDS = [
  { id: "access", label: "Sign-ins and tokens", prefixes: ["auth."] },
  { id: "people", label: "People and roles", prefixes: ["user.", "member."] },
  {
    id: "settings",
    label: "Works, tasks, secrets",
    prefixes: ["work.", "task.create", "task.update", "secret.", "asset."],
  },
  { id: "runs", label: "Runs, decisions, merges", prefixes: ["run.", "task.stage", "task.merge"] },
] as const;

export type AuditKind = (typeof AUDIT_KINDS)[number]["id"];

export const AUDIT_KIND_IDS = AUDIT_KINDS.map((k) => k.id) as readonly AuditKind[];

export function isAuditKind(value: unknown): value is AuditKind {
  return typeof value === "string" && (AUDIT_KIND_IDS as readonly string[]).includes(value);
}

export function prefixesOf(kind: AuditKind): readonly string[] {
  return AUDIT_KINDS.find((k) => k.id === kind)?.prefixes ?? [];
}

export function kindOfAction(action: string): AuditKind | null {
  return AUDIT_KINDS.find((k) => k.prefixes.some((p) => action.startsWith(p)))?.id ?? null;
}

// Who: part of the actor's label (an email, a worker's or the system's name), trimmed; at most 200 characters.
export function auditWhoFilter(raw: string | null | undefined): string | undefined {
  const who = raw?.trim();
  return who ? who.slice(0, 200) : undefined;
}
