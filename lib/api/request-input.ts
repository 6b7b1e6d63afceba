// Reading untrusted request input without letting it cost the server: bodies are capped before they are
// read (Content-Length, then a streaming read that stops at the cap for chunked bodies), JSON nesting is
// bounded before it is parsed, and text that no database can store (lone surrogates, NUL) is refused
// with the path of the field. Every refusal is an AppError, so callers answer 4xx, never 500.
import { AppError } from "../errors";
import { API_BODY_LIMIT_BYTES } from "../http/security-headers";

export const MAX_BODY_BYTES = API_BODY_LIMIT_BYTES;
const MAX_JSON_DEPTH = 32;

function tooLarge(limit: number): AppError {
  return new AppError("too_large", `body: at most ${limit} bytes`, [
    { path: "body", message: `at most ${limit} bytes` },
  ]);
}

function invalid(path: string, message: string): AppError {
  return new AppError("validation", `${path}: ${message}`, [{ path, message }]);
}

// Refuses a declared length over the limit without reading a byte.
export function refuseDeclaredLength(headers: Headers, limit = MAX_BODY_BYTES): void {
  const declared = headers.get("content-length");
  if (declared === null) return;
  if (!/^\d+$/.test(declared.trim())) throw invalid("content-length", "must be a number of bytes");
  if (Number(declared) > limit) throw tooLarge(limit);
}

// The body's bytes, read at most `limit` bytes far (the stream is cancelled past it).
export async function readBodyBytes(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  refuseDeclaredLength(request.headers, limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

// The body as UTF-8 text, read at most `limit` bytes far.
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const bytes = await readBodyBytes(request, limit);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw invalid("body", "must be UTF-8 text");
  }
}

// How deep brackets nest in JSON text, counted without parsing (strings skipped); stops past `max`.
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export function parseJsonText(text: string): unknown {
  if (text.trim() === "") return {};
  if (jsonDepthExceeds(text)) throw invalid("body", `nested deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid("body", "must be valid JSON");
  }
  refuseUnstorableText(value);
  return value;
}

export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  return parseJsonText(await readBodyText(request, limit));
}

// A lone UTF-16 surrogate (e.g. "\ud800") cannot be encoded as UTF-8, and PostgreSQL refuses NUL in text.
const UNSTORABLE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\0/;

export function textProblem(value: string): string | null {
  const found = UNSTORABLE.exec(value);
  if (!found) return null;
  return found[0] === "\0" ? "must not contain NUL characters" : "must be valid Unicode (a lone surrogate was sent)";
}

// Walks any input (a parsed body, a Server Action's arguments) and refuses the first unstorable string,
// naming its field; nesting deeper than MAX_JSON_DEPTH is refused too (zod and Prisma recurse).
export function refuseUnstorableText(value: unknown, path: (string | number)[] = [], depth = 0): void {
  if (depth > MAX_JSON_DEPTH) throw invalid(path.join(".") || "body", `nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (typeof value === "string") {
    const problem = textProblem(value);
    if (problem) throw invalid(path.join(".") || "body", problem);
    return;
  }
  if (!value || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) refuseUnstorableText(item, [...path, i], depth + 1);
    return;
  }
  if (value instanceof Date || value instanceof Blob) return;
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = textProblem(key);
    if (keyProblem) throw invalid([...path, "(field name)"].join("."), keyProblem);
    refuseUnstorableText(item, [...path, key], depth + 1);
  }
}

// A path segment or query value as the route sees it, refused when unstorable.
export function refuseUnstorableParams(params: Record<string, string | string[] | undefined>): void {
  for (const [name, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      const problem = typeof v === "string" ? textProblem(v) : null;
      if (problem) throw invalid(name, problem);
    }
  }
}

// Whole-number query parameters (?before=, ?from=, ?count=): absent gives undefined; anything but digits
// in range (NaN, 1e309, -1, 1.5, a huge number) is a 400 naming the parameter.
export function intQueryParam(
  query: URLSearchParams,
  name: string,
  range: { min: number; max: number },
): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === "") return undefined;
  const rule = `must be a whole number from ${range.min} to ${range.max}`;
  if (!/^\d{1,15}$/.test(raw)) throw invalid(name, rule);
  const value = Number(raw);
  if (value < range.min || value > range.max) throw invalid(name, rule);
  return value;
}

export function textQueryParam(query: URLSearchParams, name: string, maxLength = 200): string | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (raw.length > maxLength) throw invalid(name, `at most ${maxLength} characters`);
  const problem = textProblem(raw);
  if (problem) throw invalid(name, problem);
  return raw;
}

// An ISO 8601 time query parameter (?before=2026-02-28T10:00:00Z, or a date alone): absent gives undefined;
// anything else, a day the month does not have included (JavaScript reads 2026-02-31 as 3 March), is a
// 400 naming the parameter.
export function timeQueryParam(query: URLSearchParams, name: string): Date | undefined {
  const raw = textQueryParam(query, name, 40);
  if (!raw) return undefined;
  const rule = "must be an ISO 8601 time (such as 2026-02-28 or 2026-02-28T10:00:00Z) on a day the month has";
  const day = /^(\d{4})-(\d\d)-(\d\d)(?:$|T)/.exec(raw);
  const time = new Date(raw);
  if (!day || Number.isNaN(time.getTime())) throw invalid(name, rule);
  const [year, month, date] = day.slice(1).map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || date < 1 || date > daysInMonth) throw invalid(name, rule);
  return time;
}
