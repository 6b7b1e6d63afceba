// Headers on every response: no page may be framed (clickjacking), no type sniffing, no full URLs
// (which carry run and task ids) in the Referer sent to other sites.
export const SECURITY_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: "X-Frame-Options", value: "DENY" },
  {
    key: "Content-Security-Policy",
    value: "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

// JSON API bodies: the largest legitimate one (a task with 20 checks at their longest) is ~100 KB.
export const API_BODY_LIMIT_BYTES = 1024 * 1024;
// Server Action bodies (forms, editors' saves) are capped like the JSON API's.
export const ACTION_BODY_LIMIT_BYTES = 1024 * 1024;
