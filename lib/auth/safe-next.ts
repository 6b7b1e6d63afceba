// Where to go after signing in: only a path of this site ("//host" and "/\host" would leave it).
export function safeNext(value: unknown): string {
  const next = typeof value === "string" ? value : "/";
  return /^\/(?![/\\])/.test(next) ? next : "/";
}
