// Issue 15 on a server of the test's own (its own port and data dir), where the test can look at the
// server's files and memory, and start it behind a trusted proxy (GATEHOUSE_TRUST_PROXY=1).
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./support/test";
import { BOOTSTRAP_TOKEN, startOwnServer } from "./support/own-server";
import { rawRequest } from "./support/raw-http";

test.use({ storageState: { cookies: [], origins: [] } });

const PORT = Number(process.env.E2E_PORT ?? 3210) + 52;
const ADMIN = { email: "admin@own.example", password: "own-admin-password-1" };

function rssMb(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))!;
  return Number(line.replace(/\D+/g, "")) / 1024;
}

test("the data dir is private, 100 MB bodies do not grow the server, and a trusted proxy's host counts", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const server = await startOwnServer({
    port: PORT,
    env: {
      GATEHOUSE_TRUST_PROXY: "1",
      GATEHOUSE_ADMIN_EMAIL: ADMIN.email,
      GATEHOUSE_ADMIN_PASSWORD: ADMIN.password,
    },
  });
  try {
    const token = { authorization: `Bearer ${BOOTSTRAP_TOKEN}`, "content-type": "application/json" };
    // A secret makes the key file; writes make the WAL.
    const work = await fetch(`${server.url}/api/works`, {
      method: "POST",
      headers: token,
      body: JSON.stringify({ name: "Private", repoUrl: "/nonexistent", baseBranch: "main" }),
    }).then((r) => r.json());
    const secret = await fetch(`${server.url}/api/works/${work.id}/secrets/API_KEY`, {
      method: "PUT",
      headers: token,
      body: JSON.stringify({ value: "a-secret-value" }),
    });
    expect(secret.status).toBe(201);

    // Other local users can read nothing of the platform's: the database, its WAL files, the key.
    const mode = (p: string) => fs.statSync(p).mode & 0o777;
    // Started as root, the sandbox runs commands as an unprivileged user of Gatehouse's own, which may pass
    // through the data dir to the folders bound into its sandbox (0711: it lists nothing there); otherwise
    // nobody but the server enters it.
    expect(mode(server.dataDir)).toBe(process.getuid?.() === 0 ? 0o711 : 0o700);
    for (const file of ["gatehouse.db", "gatehouse.db-wal", "gatehouse.db-shm", "secret.key"])
      expect([file, mode(path.join(server.dataDir, file)).toString(8)]).toEqual([file, "600"]);

    // Memory: warm the route up, then send 100 MB three ways; the server stays within a few MB.
    const pid = server.process.pid!;
    await fetch(`${server.url}/api/auth/token`, { method: "POST", body: "{}" });
    const before = rssMb(pid);
    const chunked = await rawRequest({
      url: `${server.url}/api/auth/token`,
      headers: { "content-type": "application/json" },
      streamBytes: 100 * 1024 * 1024,
    });
    expect(chunked.status).toBe(413);
    const declared = await rawRequest({
      url: `${server.url}/api/auth/token`,
      headers: { "content-type": "application/json" },
      declaredLength: 100 * 1024 * 1024,
      streamBytes: 1024 * 1024,
    });
    expect(declared.status).toBe(413);
    const parallel = await Promise.all(
      Array.from({ length: 5 }, () =>
        rawRequest({ url: `${server.url}/api/works/x/tasks`, headers: token, streamBytes: 20 * 1024 * 1024 }),
      ),
    );
    expect(parallel.map((a) => a.status)).toEqual(Array(5).fill(413));
    const grown = rssMb(pid) - before;
    console.log(`server RSS grew by ${grown.toFixed(1)} MB over 200 MB of refused bodies`);
    expect(grown).toBeLessThan(60);

    // Behind a trusted proxy, X-Forwarded-Host is the host the browser addressed.
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto("/signin");
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByLabel(/^Account: /)).toBeVisible();
    const session = (await context.cookies()).find((c) => c.name === "gatehouse_session")!;
    await context.close();
    const viaProxy = await fetch(`${server.url}/api/works/${work.id}`, {
      method: "PATCH",
      headers: {
        cookie: `gatehouse_session=${session.value}`,
        origin: "https://gatehouse.example",
        "x-forwarded-host": "gatehouse.example",
        "content-type": "application/json",
      },
      body: JSON.stringify({ version: 1, name: "Renamed through the proxy" }),
    });
    expect(viaProxy.status).toBe(200);
    const otherSite = await fetch(`${server.url}/api/works/${work.id}`, {
      method: "PATCH",
      headers: {
        cookie: `gatehouse_session=${session.value}`,
        origin: "https://evil.example",
        "x-forwarded-host": "gatehouse.example",
        "content-type": "application/json",
      },
      body: JSON.stringify({ version: 2, name: "pwned" }),
    });
    expect(otherSite.status).toBe(403);
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
  } finally {
    server.stop();
  }
});
