// Slows repeated wrong passwords: per account (stored, survives restarts) and per client address
// (in memory). After 5 failures the wait doubles with each further failure, up to 15 minutes.
const FREE_FAILURES = 5;
const MAX_WAIT_MS = 15 * 60 * 1000;

function waitAfterFailures(failures: number, free = FREE_FAILURES): number {
  if (failures < free) return 0;
  return Math.min(MAX_WAIT_MS, 1000 * 2 ** (failures - free));
}

// Milliseconds still to wait before another try, given the failures so far and when the last one was.
export function remainingWait(
  failures: number,
  lastFailedAt: Date | null,
  now = Date.now(),
  free = FREE_FAILURES,
): number {
  if (!lastFailedAt) return 0;
  return Math.max(0, lastFailedAt.getTime() + waitAfterFailures(failures, free) - now);
}

type Entry = { failures: number; last: number };
const holder = globalThis as unknown as { __gatehouseThrottle?: Map<string, Entry> };
holder.__gatehouseThrottle ??= new Map<string, Entry>();
const byKey = holder.__gatehouseThrottle;

// A client address may fail more often (people share addresses) before it is slowed.
const FREE_PER_ADDRESS = 20;
// An email with no account is slowed exactly like an account (in memory rather than stored), so the
// answer to a wrong password never tells whether the account exists.
export const FREE_PER_ACCOUNT = FREE_FAILURES;

// `free`: failures allowed before the first wait. An address is forgotten after 15 quiet minutes; an
// unknown email keeps its count, as an account's stored count does (`forgets: false`).
export function keyWait(key: string, now = Date.now(), free = FREE_PER_ADDRESS, forgets = true): number {
  const entry = byKey.get(key);
  if (!entry) return 0;
  if (forgets && now - entry.last > MAX_WAIT_MS) {
    byKey.delete(key);
    return 0;
  }
  return remainingWait(entry.failures, new Date(entry.last), now, free);
}

export function keyFailed(key: string, now = Date.now()): void {
  const entry = byKey.get(key);
  byKey.set(key, { failures: (entry?.failures ?? 0) + 1, last: now });
  if (byKey.size > 10_000) byKey.delete(byKey.keys().next().value!);
}

export function keySucceeded(key: string): void {
  byKey.delete(key);
}
