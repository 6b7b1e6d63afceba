// A readable difference between two versions of settings (for the change history): check lists are
// compared by id (added, removed, moved, and each changed field), other fields as before → after.
type CheckLike = { id: string } & Record<string, unknown>;

export type DiffLine = {
  path: string;
  change: "added" | "removed" | "changed" | "moved";
  before?: string;
  after?: string;
};

const LIST_FIELDS = new Set(["checkDefaults", "acceptanceChecks"]);

export function showValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "(not set)";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

function diffChecks(field: string, before: CheckLike[], after: CheckLike[]): DiffLine[] {
  const lines: DiffLine[] = [];
  const beforeIds = before.map((c) => c.id);
  const afterIds = after.map((c) => c.id);
  for (const check of after) {
    const old = before.find((c) => c.id === check.id);
    if (!old) {
      lines.push({ path: `${field}.${check.id}`, change: "added", after: showValue(check) });
      continue;
    }
    for (const key of new Set([...Object.keys(old), ...Object.keys(check)])) {
      if (JSON.stringify(old[key]) !== JSON.stringify(check[key]))
        lines.push({
          path: `${field}.${check.id}.${key}`,
          change: "changed",
          before: showValue(old[key]),
          after: showValue(check[key]),
        });
    }
  }
  for (const check of before)
    if (!afterIds.includes(check.id))
      lines.push({ path: `${field}.${check.id}`, change: "removed", before: showValue(check) });
  const common = afterIds.filter((id) => beforeIds.includes(id));
  const oldOrder = beforeIds.filter((id) => afterIds.includes(id));
  if (common.join() !== oldOrder.join())
    lines.push({ path: `${field} order`, change: "moved", before: oldOrder.join(", "), after: common.join(", ") });
  return lines;
}

const entries = (n: number) => `${n} task ${n === 1 ? "entry" : "entries"}`;

function describeList(value: unknown): string {
  if (value === null) return "inherit the Work's defaults";
  if (Array.isArray(value)) return entries(value.length);
  return showValue(value);
}

export function diffSettings(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): DiffLine[] {
  const b = before ?? {};
  const a = after ?? {};
  const lines: DiffLine[] = [];
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    const x = b[key];
    const y = a[key];
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    if (LIST_FIELDS.has(key) && Array.isArray(x) && Array.isArray(y))
      lines.push(...diffChecks(key, x as CheckLike[], y as CheckLike[]));
    else if (LIST_FIELDS.has(key))
      lines.push({ path: key, change: "changed", before: describeList(x), after: describeList(y) });
    else lines.push({ path: key, change: "changed", before: showValue(x), after: showValue(y) });
  }
  return lines;
}
