// Test helper: call a Next route handler as the server would, with JSON in and out.
import type { Json } from "./json";

let defaultToken: string | undefined;

// Every later call without its own token (and without `token: ""`) sends this one.
export function sendTokenByDefault(token: string | undefined): void {
  defaultToken = token;
}

// null (typed as Json) when the body is not JSON: a test that reads a field of it fails there.
function parseJson(text: string): Json {
  try {
    return text ? JSON.parse(text) : (null as unknown as Json);
  } catch {
    return null as unknown as Json;
  }
}

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

export async function callRoute<P extends Record<string, string>>(
  handler: Handler<P>,
  opts: {
    method?: string;
    path?: string;
    params?: P;
    body?: unknown;
    token?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; json: Json; headers: Headers; text: string }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const token = opts.token ?? defaultToken;
  if (token) headers.authorization = `Bearer ${token}`;
  const request = new Request(`http://localhost${opts.path ?? "/"}`, {
    method: opts.method ?? "GET",
    headers,
    body: opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body),
  });
  const response = await handler(request, { params: Promise.resolve((opts.params ?? {}) as P) });
  const text = await response.text();
  return { status: response.status, json: parseJson(text), headers: response.headers, text };
}
