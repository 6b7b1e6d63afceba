// Task keys (GATE-12) and default branch names derived from them.

// The key prefix of a Work: the leading letters of its name, upper-cased (e.g. "Gatehouse demo" → "GATE").
export function keyPrefixFor(workName: string): string {
  const letters = workName.toUpperCase().replace(/[^A-Z0-9]/g, "");
  const prefix = letters.replace(/^[0-9]+/, "").slice(0, 4);
  return prefix.length >= 2 ? prefix : "TASK";
}

// The Work's prefix, or, when another Work holds it, the first of it with 2, 3, … that none does ("PAYM" →
// "PAYM2"): a task's key names one task across Works (the inbox, webhooks and the CLI name tasks by key).
export function freeKeyPrefix(workName: string, isTaken: (prefix: string) => boolean): string {
  const base = keyPrefixFor(workName);
  let prefix = base;
  for (let n = 2; isTaken(prefix); n++) prefix = `${base}${n}`;
  return prefix;
}

export function taskKey(prefix: string, number: number): string {
  return `${prefix}-${number}`;
}

export function defaultBranchFor(key: string): string {
  return `gatehouse/${key.toLowerCase()}`;
}
