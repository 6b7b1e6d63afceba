// Random and malformed input for the API fuzz test, from a seeded PRNG (the seed reproduces a failure).
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

export type Rng = () => number;

// mulberry32: small, fast, and the same sequence for the same seed everywhere.
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
const int = (rng: Rng, max: number) => Math.floor(rng() * max);

export type ApiRoute = { template: string; methods: string[] };

// Every app/api/**/route.ts with the methods it exports, e.g. /api/works/[id]/tasks: GET, POST.
export function enumerateApiRoutes(root = path.resolve(__dirname, "..", "..", "app", "api")): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const source = fs.readFileSync(full, "utf8");
        const methods = [...source.matchAll(/(?:export const|as) (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]);
        routes.push({ template: `/api/${path.relative(root, dir).split(path.sep).join("/")}`, methods });
      }
    }
  };
  walk(root);
  return routes.sort((a, b) => a.template.localeCompare(b.template));
}

const NASTY_TEXT = [
  "\ud800",
  "\udfff",
  "a\ud800b",
  "\udc00\ud800",
  "\u0000",
  "x\u0000y",
  "\u001b[31mred\u001b[0m",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "../../../../etc/passwd",
  "%E0%A4%A",
  "\u202etxt.exe",
  "👩‍👩‍👧‍👦",
  "\uFEFF",
  " ",
  "",
  "null",
  "1e309",
  "-1",
  "NaN",
  "__proto__",
  "$(id)",
  "`id`",
  "a".repeat(121),
  "9".repeat(400),
];

function randomText(rng: Rng): string {
  const r = rng();
  if (r < 0.35) return pick(rng, NASTY_TEXT);
  if (r < 0.4) return "x".repeat(1000 + int(rng, 300_000));
  if (r < 0.45) return pick(rng, NASTY_TEXT).repeat(1 + int(rng, 5000));
  const alphabet = "abcXYZ019 _-./:@\\\"'{}[]<>&%\u00e9\u4e2d\ud83d\ude00\u0000\ud800\n\t";
  return Array.from({ length: int(rng, 40) }, () => alphabet[int(rng, alphabet.length)]).join("");
}

function randomValue(rng: Rng, depth = 0): unknown {
  const r = rng();
  if (depth > 4 || r < 0.15) return pick(rng, [null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, -0]);
  if (r < 0.55) return randomText(rng);
  if (r < 0.75) return Array.from({ length: int(rng, 6) }, () => randomValue(rng, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = int(rng, 6); i > 0; i--)
    object[rng() < 0.3 ? pick(rng, NASTY_TEXT) : randomText(rng).slice(0, 20)] = randomValue(rng, depth + 1);
  return object;
}

// A valid-looking body for each kind of write, for mutation (fields replaced, dropped, added).
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  "/api/auth/token": { email: "admin@fuzz.example", password: "not-the-password", name: "fuzz" },
  "/api/users": { email: "someone@fuzz.example", password: "long-enough-password", name: "Someone" },
  "/api/works": { name: "Fuzzed", repoUrl: "/nonexistent", baseBranch: "main", checkDefaults: [] },
  "/api/works/[id]": {
    version: 1,
    name: "Renamed",
    checkDefaults: [{ id: "a", name: "a", command: "true" }],
    checkSources: [{ name: "gate", url: "file:///proc/self/root/tmp/../", ref: "main" }],
  },
  "/api/works/[id]/tasks": { title: "A task", description: "d", acceptanceChecks: [] },
  "/api/tasks/[id]": { version: 1, acceptanceChecks: [{ id: "a", disabled: true }], maxGateAttempts: 2 },
  "/api/works/[id]/members/[userId]": { role: "viewer" },
  "/api/works/[id]/secrets/[name]": { value: "a-secret-value" },
  "/api/runs/[id]/decision": { choice: "more-attempts", attempts: 1 },
  // The newer routes (issue 22): a merge, a check source whose url is a local path (into the data dir, the
  // install, a link), a Work whose repository is out of reach.
  "/api/tasks/[id]/merge": { force: true },
  "/api/works/[id]/assets": { name: "fixture.json" },
};

function mutate(rng: Rng, body: Record<string, unknown>): unknown {
  const copy: Record<string, unknown> = structuredClone(body);
  const keys = Object.keys(copy);
  for (let i = 1 + int(rng, 3); i > 0; i--) {
    const r = rng();
    if (r < 0.5 && keys.length) copy[pick(rng, keys)] = randomValue(rng);
    else if (r < 0.7 && keys.length) delete copy[pick(rng, keys)];
    else copy[randomText(rng).slice(0, 30) || "extra"] = randomValue(rng);
  }
  return copy;
}

export type FuzzBody = { text: string | Buffer | null; contentType: string | null; kind: string };

const CONTENT_TYPES = [
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=zzz",
  "application/xml",
  "application/json; charset=latin1",
  "garbage/;;;",
  null,
];

export function randomBody(rng: Rng, template: string): FuzzBody {
  const contentType = pick(rng, CONTENT_TYPES);
  const r = rng();
  const valid = VALID_BODIES[template];
  if (r < 0.3 && valid) return { text: JSON.stringify(mutate(rng, valid)), contentType, kind: "mutated" };
  if (r < 0.5) return { text: JSON.stringify(randomValue(rng)) ?? "null", contentType, kind: "random-json" };
  if (r < 0.58) {
    const n = pick(rng, [33, 100, 1000, 50_000, 200_000]);
    const open = rng() < 0.5 ? "[" : '{"a":';
    const close = open === "[" ? "]" : "}";
    return { text: `${open.repeat(n)}1${close.repeat(n)}`, contentType, kind: `nested-${n}` };
  }
  if (r < 0.66) {
    const field = valid ? pick(rng, Object.keys(valid)) : "name";
    const escaped = pick(rng, ["\\ud800", "\\udfff", "\\u0000", "a\\ud83d", "\\udc00x"]);
    const base = JSON.stringify({ ...(valid ?? {}), [field]: "PLACEHOLDER" });
    return { text: base.replace("PLACEHOLDER", escaped), contentType, kind: "escape" };
  }
  if (r < 0.76) {
    const raw = pick(rng, [
      "{",
      "[1,2",
      '{"a":}',
      "nul",
      "{'a':1}",
      "\u0000",
      "1e309",
      "-",
      '"\\x"',
      "{}{}",
      ",",
      "NaN",
    ]);
    return { text: raw, contentType, kind: "invalid-json" };
  }
  if (r < 0.81) {
    const bytes = Buffer.from([
      0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x22, 0x7d,
    ]);
    return { text: bytes, contentType, kind: "invalid-utf8" };
  }
  if (r < 0.82) return { text: "x".repeat(1024 * 1024 + 1 + int(rng, 1024 * 1024)), contentType, kind: "too-large" };
  if (r < 0.9) return { text: null, contentType: null, kind: "empty" };
  return {
    text: `--zzz\r\nContent-Disposition: form-data; name="name"\r\n\r\n\ud800\r\n--zzz--`,
    contentType,
    kind: "form",
  };
}

// Percent-encodes anything, lone surrogates included (as the bytes a careless encoder would send, e.g.
// %ED%A0%80), where encodeURIComponent would throw.
function encodeLoosely(text: string): string {
  let out = "";
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    out +=
      ch.length === 1 && c >= 0xd800 && c <= 0xdfff
        ? `%ED%${(0xa0 | ((c >> 6) & 0x1f)).toString(16).toUpperCase()}%` +
          `${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`
        : encodeURIComponent(ch);
  }
  return out;
}

const QUERY_NAMES = ["before", "from", "count", "q", "download", "workId", "n", "x", "__proto__"];
const QUERY_VALUES = [
  "1e309",
  "NaN",
  "-1",
  "0",
  "1",
  "99999999999999999999999",
  "1.5",
  "",
  "%00",
  "%E0%A4%A",
  "%ED%A0%80",
];

export function randomQuery(rng: Rng): string {
  const parts: string[] = [];
  for (let i = int(rng, 4); i > 0; i--) {
    const value = rng() < 0.7 ? pick(rng, QUERY_VALUES) : encodeLoosely(randomText(rng).slice(0, 300));
    parts.push(`${pick(rng, QUERY_NAMES)}=${value}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

const NASTY_SEGMENTS = [
  "%E0%A4%A",
  "%00",
  "%ED%A0%80",
  "x".repeat(3000),
  "..%2F..%2Fetc",
  "%2e%2e",
  "null",
  "0",
  "-1",
  "%F0%9F%98%80",
];

// A path segment: the real id mostly, else something malformed or unknown.
export function randomSegment(rng: Rng, real: string): string {
  const r = rng();
  if (r < 0.65) return encodeLoosely(real);
  if (r < 0.85) return pick(rng, NASTY_SEGMENTS);
  return encodeLoosely(randomText(rng).slice(0, 100)) || "x";
}

// Node's fetch reads at most 16 KB of response headers; browsers and curl read far more (Chromium 256 KB).
// Next's own 308 for an address it normalises (/api/works/%2e%2e → /api) repeats the query in Location
// and Refresh, with invalid UTF-8 re-encoded as U+FFFD (three times longer), so a 2.7 KB query can answer
// with more than fetch reads. The fuzz sends its requests with this instead, reading answers as a browser would.
const BROWSER_HEADER_LIMIT = 256 * 1024;

export function requestWithBrowserHeaderLimit(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | Uint8Array },
): Promise<{ status: number; contentType: string; text: string }> {
  const body = init.body === undefined ? undefined : Buffer.from(init.body);
  const headers: Record<string, string> = { accept: "*/*", ...init.headers };
  if (body) {
    headers["content-length"] = String(body.length);
    if (typeof init.body === "string" && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
      headers["content-type"] = "text/plain;charset=UTF-8";
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: init.method, headers, maxHeaderSize: BROWSER_HEADER_LIMIT, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("no answer within 30 s")));
    req.on("error", reject);
    req.end(body);
  });
}
