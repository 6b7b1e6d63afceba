import type { NextConfig } from "next";
import { ACTION_BODY_LIMIT_BYTES, API_BODY_LIMIT_BYTES, SECURITY_HEADERS } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  // Packages with native parts or large runtimes stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg", "pg-boss"],
  poweredByHeader: false,
  // The runner's file system calls on paths made at run time (a checkout, the data dir) carry
  // `/* turbopackIgnore: true */`: the build's file tracer would otherwise trace the whole project for each.
  // The build does not type-check: `npm run typecheck` checks the whole project (the app, its tests and
  // tooling) and `npm run lint` runs it. In the build it checked the app alone, 16 s of a 39 s build on the
  // 2-core machine, paid again by every `npm test` and by a new user's first `npm start`.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    serverActions: { bodySizeLimit: ACTION_BODY_LIMIT_BYTES },
    // Next buffers the body of a request proxy.ts sees (up to this, then it would cut it short): proxy.ts
    // sees only bodies with a declared length and refuses those over the limits, so none is ever cut.
    proxyClientMaxBodySize: Math.max(ACTION_BODY_LIMIT_BYTES, API_BODY_LIMIT_BYTES),
  },
  async headers() {
    return [{ source: "/:path*", headers: [...SECURITY_HEADERS] }];
  },
  // Addresses people type for the sign-in page. Redirected before proxy.ts, which would send someone signed
  // out to /signin?next=/login: signed in, they would then land on a page that does not exist. Signed in
  // already, /signin leads on to the inbox.
  // `/settings` is one's own settings, of which API tokens are the only section: a real redirect (a page's
  // redirect() streams the loading skeleton first, so the browser arrived there only after a 200).
  async redirects() {
    return [
      ...["/login", "/log-in", "/sign-in"].map((source) => ({ source, destination: "/signin", permanent: false })),
      { source: "/settings", destination: "/settings/tokens", permanent: false },
    ];
  },
};

export default nextConfig;
