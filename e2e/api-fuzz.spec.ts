// Fuzzing the JSON API of a real server (its own port and data dir, loopback only): a few thousand
// random and malformed requests against every route under app/api — wrong types, huge strings, deep
// nesting, lone surrogates, NUL, unknown fields, invalid JSON and UTF-8, wrong content types, random
// query params and malformed path segments — as the admin (token and session cookie) and signed out.
// No answer may be a 5xx, the server may log no unexpected error, and /api/health is ok afterwards.
// FUZZ_SEED=<n> replays a run (the seed is printed); FUZZ_COUNT changes how many requests are sent.
import { expect, test } from "./support/test";
import {
  enumerateApiRoutes,
  pick,
  randomBody,
  randomQuery,
  randomSegment,
  requestWithBrowserHeaderLimit,
  seededRng,
  type FuzzBody,
} from "./support/fuzz";
import { BOOTSTRAP_TOKEN, makeGitRepo, startOwnServer } from "./support/own-server";

test.use({ storageState: { cookies: [], origins: [] } });

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const COUNT = Number(process.env.FUZZ_COUNT ?? 3000);
const TIME_BUDGET_MS = 180_000;
const PORT = Number(process.env.E2E_PORT ?? 3210) + 51;
const ADMIN = { email: "admin@fuzz.example", password: "fuzz-admin-password-1" };

type Failure = { i: number; method: string; url: string; auth: string; body: string; status: number; answer: string };

// `npm test` sends 500 (FUZZ_COUNT); `npm run test:full` runs it again at full size (tag @fuzz).
test("a few thousand random and malformed API requests never get a 5xx, and the server stays healthy", {
  tag: "@fuzz",
}, async ({ browser }) => {
  test.setTimeout(TIME_BUDGET_MS + 150_000);
  console.log(`api fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${COUNT} requests`);
  const server = await startOwnServer({
    port: PORT,
    env: { GATEHOUSE_ADMIN_EMAIL: ADMIN.email, GATEHOUSE_ADMIN_PASSWORD: ADMIN.password },
  });
  try {
    expect(new URL(server.url).hostname).toBe("127.0.0.1");
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${BOOTSTRAP_TOKEN}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: await res.json() };
    };
    // Real ids, so that requests reach past the lookups: a Work, a task, a finished run with a log, a
    // person, a secret, a webhook and its deliveries (to a closed local port: each one is refused at once).
    const work = await api("POST", "/api/works", {
      name: `Fuzz target ${Date.now()}`,
      repoUrl: makeGitRepo(),
      baseBranch: "main",
      checkDefaults: [{ id: "hello", name: "hello", kind: "custom", command: "echo hello", required: true }],
      webhooks: [
        { url: "http://127.0.0.1:9/hook", events: ["run.started", "run.ended"], secret: "fuzz-webhook-secret" },
      ],
    });
    expect(work.status).toBe(201);
    const task = await api("POST", `/api/works/${work.json.id}/tasks`, { title: "Fuzzed task" });
    const dispatched = await api("POST", `/api/tasks/${task.json.id}/dispatch`);
    expect(dispatched.status).toBe(202);
    await expect
      .poll(async () => (await api("GET", `/api/runs/${dispatched.json.runId}`)).json.status, { timeout: 60_000 })
      .toBe("finished");
    const person = await api("POST", "/api/users", { email: "person@fuzz.example", password: "long-enough-password" });
    await api("PUT", `/api/works/${work.json.id}/secrets/FUZZ_SECRET`, { value: "fuzz-secret-value" });
    // An asset, so the asset routes reach past their lookup too.
    await fetch(`${server.url}/api/works/${work.json.id}/assets?name=fixture.json`, {
      method: "POST",
      headers: { authorization: `Bearer ${BOOTSTRAP_TOKEN}`, "content-type": "application/octet-stream" },
      body: '{"a":1}',
    });
    const webhookId = work.json.webhooks[0].id as string;
    const deliveries = await api("GET", `/api/works/${work.json.id}/webhooks/${webhookId}/deliveries`);
    const real: Record<string, string> = {
      id: work.json.id,
      webhookId,
      deliveryId: deliveries.json.deliveries?.[0]?.id ?? "no-delivery-yet",
      userId: person.json.id,
      name: "FUZZ_SECRET",
      n: "1",
      checkId: "hello",
      path: "no/such/route",
    };
    const realIdFor = (template: string, segment: string) => {
      if (segment === "name" && template.includes("/assets/")) return "fixture.json";
      // A route added later with a segment of its own is still fuzzed, with an id that matches nothing.
      if (segment !== "id") return real[segment] ?? `unknown-${segment}`;
      if (template.startsWith("/api/tasks/")) return task.json.id;
      if (template.startsWith("/api/runs/")) return dispatched.json.runId;
      return work.json.id;
    };

    // The admin's session cookie, from the real sign-in page.
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto("/signin");
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByLabel(/^Account: /)).toBeVisible();
    const session = (await context.cookies()).find((c) => c.name === "gatehouse_session")!;
    await context.close();

    const routes = enumerateApiRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const rng = seededRng(SEED);
    const authKinds: { name: string; headers: Record<string, string> }[] = [
      { name: "token", headers: { authorization: `Bearer ${BOOTSTRAP_TOKEN}` } },
      { name: "session", headers: { cookie: `gatehouse_session=${session.value}` } },
      { name: "none", headers: {} },
      { name: "bad-token", headers: { authorization: "Bearer \u00ff\u00fe" } },
      { name: "bad-cookie", headers: { cookie: "gatehouse_session=%E0%A4%A" } },
    ];
    // The whole plan is drawn first, so a seed names the same requests however the answers interleave.
    const plan = Array.from({ length: COUNT }, (_, i) => {
      const route = pick(rng, routes);
      const method = rng() < 0.9 ? pick(rng, route.methods) : pick(rng, ["GET", "POST", "PUT", "PATCH", "DELETE"]);
      const url =
        route.template.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_m, segment: string) =>
          randomSegment(rng, realIdFor(route.template, segment)),
        ) + randomQuery(rng);
      const auth = rng() < 0.45 ? authKinds[0] : rng() < 0.5 ? authKinds[1] : pick(rng, authKinds.slice(2));
      const body: FuzzBody =
        method === "GET" ? { text: null, contentType: null, kind: "none" } : randomBody(rng, route.template);
      return { i, method, url, auth, body };
    });

    const failures: Failure[] = [];
    const statuses = new Map<number, number>();
    const started = Date.now();
    let sent = 0;
    const worker = async () => {
      while (sent < plan.length && Date.now() - started < TIME_BUDGET_MS) {
        const { i, method, url, auth, body } = plan[sent++];
        const headers: Record<string, string> = { ...auth.headers };
        if (body.contentType) headers["content-type"] = body.contentType;
        const failure = { i, method, url: url.slice(0, 300), auth: auth.name };
        const shownBody = `${body.kind}: ${String(body.text ?? "").slice(0, 200)}`;
        let res: { status: number; contentType: string; text: string };
        try {
          res = await requestWithBrowserHeaderLimit(`${server.url}${url}`, {
            method,
            headers,
            body: typeof body.text === "string" ? body.text : body.text ? new Uint8Array(body.text) : undefined,
          });
        } catch (error) {
          // No answer at all is as bad as a 5xx.
          failures.push({ ...failure, body: shownBody, status: 0, answer: String(error) });
          continue;
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const isJsonError = res.status >= 400 && res.contentType.includes("application/json");
        const hasMessage = !isJsonError || typeof JSON.parse(res.text)?.error?.message === "string";
        if (res.status >= 500 || !hasMessage) {
          failures.push({ ...failure, body: shownBody, status: res.status, answer: res.text.slice(0, 300) });
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    console.log(
      `api fuzz: seed ${SEED}: ${sent} requests in ${Date.now() - started} ms over ${routes.length} ` +
        `routes; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(failures, `seed ${SEED}: requests answered 5xx or without a message`).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(Math.min(COUNT, 1000));
    // Both kinds of refusal were exercised, not only one (a fuzz that only ever hits 401 proves little).
    expect(statuses.get(400) ?? 0).toBeGreaterThan(50);
    expect(statuses.get(401) ?? 0).toBeGreaterThan(50);

    const health = await fetch(`${server.url}/api/health`);
    expect([health.status, (await health.json()).status]).toEqual([200, "ok"]);
    expect(server.output()).not.toMatch(/unexpected error|Unhandled|uncaughtException/);
    // The seeded Work still answers as before: nothing the fuzz sent broke the data it touched.
    expect((await api("GET", `/api/works/${work.json.id}`)).status).toBe(200);
  } finally {
    server.stop();
  }
});
