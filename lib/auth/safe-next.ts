// Where to go after signing in: only a path of this site. A browser strips tabs and newlines from a
// Location, reads `\` as `/` and resolves dot segments, so `/\t/host`, `/\host` or `/.//host` would leave it:
// anything with a control character, space or backslash is refused, and what is kept is the URL parser's own
// normal form of the path, checked again for a second leading slash.
const ORIGIN = "http://gatehouse.invalid";

export function safeNext(value: unknown): string {
  if (typeof value !== "string" || !/^\/(?![/\\])/.test(value)) return "/";
  if (/[\u0000-\u0020\u007f\\]/.test(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== ORIGIN) return "/";
  const next = url.pathname + url.search + url.hash;
  return /^\/(?![/\\])/.test(next) ? next : "/";
}
