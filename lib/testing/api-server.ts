// Test helper: the JSON API's real route handlers (every app/api/**/route.ts) behind a real HTTP server on
// 127.0.0.1, for tests that drive a client as a separate process (the `gatehouse` CLI, its stop hook and
// MCP server) against the in-process services and runner — without building the Next app.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type Route = { pattern: RegExp; names: string[]; catchAll: boolean; load: () => Promise<Record<string, Handler>> };

const apiDir = path.resolve(__dirname, "..", "..", "app", "api");

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

function toRoute(file: string): Route {
  const segments = path.relative(apiDir, path.dirname(file)).split(path.sep).filter(Boolean);
  const names: string[] = [];
  let catchAll = false;
  const parts = segments.map((segment) => {
    const rest = /^\[\.\.\.(\w+)\]$/.exec(segment);
    if (rest) {
      names.push(rest[1]);
      catchAll = true;
      return "(.+)";
    }
    const param = /^\[(\w+)\]$/.exec(segment);
    if (param) {
      names.push(param[1]);
      return "([^/]+)";
    }
    return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  });
  return {
    pattern: new RegExp(`^/api${parts.map((p) => `/${p}`).join("")}$`),
    names,
    catchAll,
    load: () => import(file) as Promise<Record<string, Handler>>,
  };
}

// Static segments win over dynamic ones, and the catch-all comes last (as Next matches).
function ordered(routes: Route[]): Route[] {
  const weight = (r: Route) => (r.catchAll ? 1000 : 0) + r.names.length;
  return [...routes].sort((a, b) => weight(a) - weight(b));
}

export type ApiServer = { url: string; close: () => Promise<void> };

export async function startApiServer(): Promise<ApiServer> {
  const routes = ordered(routeFiles(apiDir).map(toRoute));
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const route = routes.find((r) => r.pattern.test(url.pathname));
      const handler = route && (await route.load())[req.method ?? "GET"];
      if (!route || !handler) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"no such route"}}');
        return;
      }
      const match = route.pattern.exec(url.pathname)!;
      const params = Object.fromEntries(
        route.names.map((name, i) => {
          const value = decodeURIComponent(match[i + 1]);
          return [name, route.catchAll && i === route.names.length - 1 ? value.split("/") : value];
        }),
      );
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(key, value);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body });
      const response = await handler(request, { params: Promise.resolve(params) });
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
