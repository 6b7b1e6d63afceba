// Issue 15, tried as an attacker would, over real HTTP against the real server: bodies too big or too
// deep, input that used to get a 500, racing cancels, a forged X-Forwarded-Host, framing, signed-out
// redirects, and telling accounts apart by their throttling.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./support/test";
import { E2E_BOOTSTRAP_TOKEN } from "./support/accounts";
import { signedInContext } from "./support/sign-in";
import { api, BASE_URL, demoWork, dispatch, personWithRole, runJson, workWithChecks } from "./support/api";
import { rawRequest } from "./support/raw-http";
import { callServerAction } from "./support/server-actions";

const TOKEN = { authorization: `Bearer ${E2E_BOOTSTRAP_TOKEN}` };

async function send(method: string, url: string, headers: Record<string, string> = {}, body?: string) {
  const res = await fetch(`${BASE_URL}${url}`, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, read field by field in the tests
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, text, json };
}

// Every page of the app, its dynamic segments filled with ids that do not exist.
function allPages(): string[] {
  const root = path.resolve(__dirname, "..", "app");
  const pages: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== "api") walk(path.join(dir, entry.name));
      else if (entry.name === "page.tsx") {
        const route = `/${path.relative(root, dir).split(path.sep).join("/")}`.replace(/\[n\]/g, "1");
        pages.push(route.replace(/\[(\w+)\]/g, "made-up-$1").replace(/^\/$/, "/") || "/");
      }
    }
  };
  walk(root);
  return pages.map((p) => (p === "/" || p === "" ? "/" : p.replace(/\/$/, ""))).sort();
}

test.describe("as a stranger, signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("every page answers 307 to the sign-in page, with no cookie, a made-up one or a malformed one", async () => {
    const pages = allPages().filter((p) => p !== "/signin" && p !== "/setup");
    expect(pages.length).toBeGreaterThanOrEqual(12);
    for (const cookie of [undefined, "gatehouse_session=made-up-session", "gatehouse_session=%E0%A4%A"]) {
      for (const page of pages) {
        const res = await send("GET", page, cookie ? { cookie } : {});
        expect([page, cookie, res.status]).toEqual([page, cookie, 307]);
        const location = new URL(res.headers.get("location")!, BASE_URL);
        expect(location.pathname).toBe("/signin");
        if (page !== "/") expect(location.searchParams.get("next")).toBe(page);
      }
    }
  });

  test("a malformed session cookie on the API is a 401, not a 500", async () => {
    for (const cookie of ["gatehouse_session=%E0%A4%A", "gatehouse_session=%", "gatehouse_session=%ZZ; other=%E0"]) {
      const res = await send("GET", "/api/works", { cookie });
      expect([cookie, res.status, res.json?.error?.code]).toEqual([cookie, 401, "unauthorized"]);
      const post = await send("POST", "/api/works", { cookie, "content-type": "application/json" }, "{}");
      expect(post.status).toBe(401);
    }
  });

  test("every response carries the anti-framing and no-sniff headers", async () => {
    const work = await demoWork();
    const answers = [
      await send("GET", "/"),
      await send("GET", "/signin"),
      await send("GET", "/no-such-page"),
      await send("GET", "/api/health"),
      await send("GET", "/api/works"),
      await send("GET", `/api/works/${work.id}`, TOKEN),
      await send("GET", "/api/works/no-such-work", TOKEN),
      await send("POST", "/api/auth/token", { "content-type": "application/json" }, "{"),
    ];
    for (const { headers } of answers) {
      expect(headers.get("x-frame-options")).toBe("DENY");
      expect(headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(headers.get("x-content-type-options")).toBe("nosniff");
      expect(headers.get("referrer-policy")).toBe("same-origin");
    }
  });

  test("wrong passwords for an unknown email are throttled exactly like an account's, and take as long", async () => {
    const work = await demoWork();
    const known = await personWithRole(work.id, null);
    const unknown = `nobody-${Date.now()}@e2e.example`;
    type Answer = { status: number; message: string; ms: number };
    const attempt = async (email: string): Promise<Answer> => {
      const started = performance.now();
      const res = await send(
        "POST",
        "/api/auth/token",
        { "content-type": "application/json" },
        JSON.stringify({ email, password: "wrong password", name: "probe" }),
      );
      return { status: res.status, message: res.json.error.message, ms: performance.now() - started };
    };
    // Taken in turns, so a busy moment of the machine (other tests beside this one) falls on both alike.
    const forKnown: Answer[] = [];
    const forUnknown: Answer[] = [];
    for (let i = 0; i < 7; i++) {
      forKnown.push(await attempt(known.email));
      forUnknown.push(await attempt(unknown));
    }
    const shape = (a: { status: number; message: string }[]) =>
      a.map((x) => `${x.status} ${x.message.replace(/\d+ s$/, "N s")}`);
    expect(shape(forUnknown)).toEqual(shape(forKnown));
    expect(forKnown.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // A wrong password costs a scrypt hash whether or not the account exists.
    const median = (a: { ms: number }[]) => a.map((x) => x.ms).sort((x, y) => x - y)[2];
    expect(median(forUnknown.slice(0, 5))).toBeGreaterThan(median(forKnown.slice(0, 5)) * 0.5);
  });
});

test.describe("bodies are capped before they are read", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("a 100 MB declared body on the unauthenticated token route is refused at once with 413", async () => {
    const answer = await rawRequest({
      url: `${BASE_URL}/api/auth/token`,
      headers: { "content-type": "application/json" },
      declaredLength: 100 * 1024 * 1024,
      streamBytes: 64 * 1024,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toMatchObject({ code: "too_large", message: "body: at most 1048576 bytes" });
  });

  for (const route of ["/api/auth/token", "/api/works", "/api/works/x/secrets/NAME", "/api/runs/x/cancel"]) {
    test(`a chunked body that never ends is cut off at the cap: ${route}`, async () => {
      const answer = await rawRequest({
        url: `${BASE_URL}${route}`,
        method: route.includes("secrets") ? "PUT" : "POST",
        headers: { "content-type": "application/json", ...(route === "/api/auth/token" ? {} : TOKEN) },
        streamBytes: 100 * 1024 * 1024,
        chunk: '{"a":"',
      });
      if (route === "/api/runs/x/cancel") {
        // The cancel route reads no body: it answers without waiting for it (404: no such run). What the
        // client pushed meanwhile is its handler's time at the link's speed (38 MB in 231 ms seen on a fast
        // machine), so the bound is only that the answer came before the body could end.
        expect(answer.status).toBe(404);
        expect(answer.bytesSent).toBeLessThan(100 * 1024 * 1024);
        return;
      }
      expect(answer.status).toBe(413);
      expect(answer.bytesSent).toBeLessThan(32 * 1024 * 1024);
    });
  }

  test("JSON nested past 32 levels is a 400 naming the body, however deep", async () => {
    for (const depth of [33, 1000, 100_000]) {
      const res = await send(
        "POST",
        "/api/works",
        { ...TOKEN, "content-type": "application/json" },
        `${"[".repeat(depth)}${"]".repeat(depth)}`,
      );
      expect([depth, res.status, res.json.error.message]).toEqual([depth, 400, "body: nested deeper than 32 levels"]);
    }
    const objects = `${'{"name":'.repeat(40)}1${"}".repeat(40)}`;
    expect((await send("POST", "/api/works", { ...TOKEN, "content-type": "application/json" }, objects)).status).toBe(
      400,
    );
  });

  // Next holds a page request until its body has arrived, but keeps at most the limit of it (the own-server
  // spec measures the memory).
  test("a Server Action POST over the action limit, or chunked, is refused without being decoded", async () => {
    const declared = await rawRequest({
      url: `${BASE_URL}/works`,
      headers: { "next-action": "0".repeat(42), "content-type": "text/plain" },
      declaredLength: 100 * 1024 * 1024,
      streamBytes: 100 * 1024 * 1024,
    });
    expect(declared.status).toBe(413);
    const chunked = await rawRequest({
      url: `${BASE_URL}/works`,
      headers: { "next-action": "0".repeat(42), "content-type": "text/plain" },
      streamBytes: 10 * 1024 * 1024,
    });
    expect(chunked.status).toBe(411);
  });
});

test.describe("bad input is a 4xx naming the field, never a 500", () => {
  test("lone surrogates and NUL in names and titles (JSON API)", async () => {
    const work = await demoWork();
    const cases: [string, string, string, string][] = [
      ["POST", "/api/works", '{"name":"\\ud800","repoUrl":"/tmp/x"}', "name"],
      ["POST", "/api/works", '{"name":"ok","repoUrl":"/tmp/\\udfff"}', "repoUrl"],
      ["POST", `/api/works/${work.id}/tasks`, '{"title":"a\\ud83d"}', "title"],
      ["POST", `/api/works/${work.id}/tasks`, '{"title":"a\\u0000b"}', "title"],
      ["POST", "/api/users", '{"email":"a@b.example","password":"long-enough-pw","name":"\\udc00"}', "name"],
      ["POST", `/api/works/${work.id}/tasks`, '{"title":"t","\\ud800":1}', "(field name)"],
      ["PUT", `/api/works/${work.id}/secrets/SOME_NAME`, '{"value":"abcdef\\ud800"}', "value"],
      ["POST", "/api/auth/token", '{"email":"\\ud800@x.example","password":"p","name":"n"}', "email"],
    ];
    for (const [method, url, body, field] of cases) {
      const res = await send(method, url, { ...TOKEN, "content-type": "application/json" }, body);
      expect([url, body, res.status]).toEqual([url, body, 400]);
      expect(res.json.error.issues[0].path).toBe(field);
      expect(res.json.error.message).toMatch(/lone surrogate|NUL/);
    }
    const invalidUtf8 = await fetch(`${BASE_URL}/api/works`, {
      method: "POST",
      headers: { ...TOKEN, "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
    });
    expect([invalidUtf8.status, (await invalidUtf8.json()).error.message]).toEqual([400, "body: must be UTF-8 text"]);
  });

  test("a lone surrogate through a Server Action form is an error naming the field", async ({ request }) => {
    const work = await demoWork();
    const answer = await callServerAction(request, {
      baseURL: BASE_URL,
      page: `/tasks/${work.taskId}`,
      filename: "app/tasks/[taskId]/actions.ts",
      exportedName: "saveTaskOverridesAction",
      args: [work.taskId, { version: 1, acceptanceChecks: [{ id: "x", name: "\ud800", command: "true" }] }],
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("lone surrogate");
    expect(answer.text).toContain("acceptanceChecks.0.name");
  });

  test("numeric and time query params: NaN, 1e309, negative, fractional and huge are 400 naming the \
param", async () => {
    const work = await demoWork();
    const run = (await api("GET", `/api/tasks/${work.taskId}/runs`)).json.runs[0];
    for (const value of ["1e309", "NaN", "-1", "1.5", "99999999999999999999", "0x10", "Infinity", "%00"]) {
      const runs = await send("GET", `/api/tasks/${work.taskId}/runs?before=${value}`, TOKEN);
      expect([value, runs.status, runs.json.error.issues[0].path]).toEqual([value, 400, "before"]);
      if (run) {
        const lines = `/api/runs/${run.id}/attempts/1/checks/_agent/log/lines`;
        for (const param of ["from", "count"]) {
          const res = await send("GET", `${lines}?${param}=${value}`, TOKEN);
          expect([param, value, res.status]).toEqual([param, value, 400]);
          expect(res.json.error.issues[0].path).toBe(param);
        }
      }
    }
    for (const value of ["garbage", "1e309", "99999-01-01", "%ED%A0%80"]) {
      const audit = await send("GET", `/api/audit?before=${value}`, TOKEN);
      expect([value, audit.status, audit.json.error.issues[0].path]).toEqual([value, 400, "before"]);
    }
    const search = await send("GET", `/api/runs/x/attempts/1/checks/c/log/search?q=%ED%A0%80`, TOKEN);
    expect(search.status).toBeLessThan(500);
  });

  test("malformed path segments are a 4xx on the API and on pages", async ({ request }) => {
    for (const segment of ["%E0%A4%A", "%ED%A0%80", "%00", "%"]) {
      for (const url of [`/api/works/${segment}`, `/api/runs/${segment}/cancel`, `/api/tasks/${segment}/runs`]) {
        const res = await send(url.endsWith("cancel") ? "POST" : "GET", url, TOKEN);
        expect([url, res.status >= 400 && res.status < 500]).toEqual([url, true]);
      }
      const page = await request.get(`${BASE_URL}/works/${segment}`, { maxRedirects: 0 });
      expect([segment, page.status() >= 400 && page.status() < 500]).toEqual([segment, true]);
      // With a body of 2 MB as well (over the cap, but the path is what is wrong first).
      const big = await send("PUT", `/api/works/${segment}/secrets/NAME`, TOKEN, `"${"x".repeat(2_000_000)}"`);
      expect([segment, big.status >= 400 && big.status < 500]).toEqual([segment, true]);
    }
    // A path no API route serves (here what /api/runs/%2e%2e/cancel resolves to) is a JSON 404; a POST
    // with a session and a text body used to be a 500.
    const cookies = (await request.storageState()).cookies.filter((c) => c.name === "gatehouse_session");
    const unrouted = await send(
      "POST",
      "/api/runs/%2e%2e/cancel",
      { cookie: `gatehouse_session=${cookies[0].value}`, "content-type": "text/plain" },
      '"\\ud800"',
    );
    expect([unrouted.status, unrouted.json?.error?.code]).toEqual([404, "not_found"]);
    // Encoded dot segments (which clients resolve before sending) land on another route or none: a 4xx.
    const multipart = { ...TOKEN, "content-type": "multipart/form-data; boundary=zzz" };
    for (const url of ["/api/runs/%2e%2e/decision", "/api/runs/%2E%2E/attempts", "/works/%2e%2e/audit"]) {
      const res = await send("POST", url, multipart, "--zzz--");
      expect([url, res.status >= 400 && res.status < 500]).toEqual([url, true]);
    }
    // What resolves to /settings meets its redirect (next.config.ts): sent on, never served or decoded there.
    const moved = await send("POST", "/works/%2e%2e/settings", multipart, "--zzz--");
    expect([moved.status, moved.headers.get("location")]).toEqual([307, "/settings/tokens"]);
  });

  test("pages ignore a ?before= that is not a page cursor instead of failing", async ({ request }) => {
    const work = await demoWork();
    for (const value of ["1e309", "NaN", "-5", "99999999999999999999"]) {
      for (const url of [`/tasks/${work.taskId}?before=${value}`, `/audit?before=${value}`, `/?before=${value}`]) {
        const page = await request.get(`${BASE_URL}${url}`, { maxRedirects: 0 });
        expect([url, page.status()]).toEqual([url, 200]);
        expect(await page.text()).not.toContain("Something went wrong");
      }
    }
  });
});

test.describe("cross-site requests", () => {
  test("a cross-origin Server Action is a 403, also with a forged X-Forwarded-Host", async ({ request }) => {
    const work = await demoWork();
    const before = (await api("GET", `/api/tasks/${work.taskId}/runs`)).json.runs.length;
    const variants: Record<string, string>[] = [{}, { "x-forwarded-host": "evil.example" }];
    for (const headers of variants) {
      const response = await request.post(`${BASE_URL}/tasks/${work.taskId}`, {
        headers: {
          "next-action": "0".repeat(42),
          "content-type": "text/plain;charset=UTF-8",
          origin: "http://evil.example",
          ...headers,
        },
        data: JSON.stringify([work.taskId]),
        failOnStatusCode: false,
        maxRedirects: 0,
      });
      expect(response.status()).toBe(403);
      expect((await response.json()).error.code).toBe("forbidden");
    }
    expect((await api("GET", `/api/tasks/${work.taskId}/runs`)).json.runs.length).toBe(before);
  });

  // Found by the API fuzz (seed 1085266976): /api/%2e%2e resolves to the start page, and a POST there with
  // a broken multipart body was Next's 500.
  test("a page POST whose form body is malformed is a 400, wherever the path resolves", async ({ request }) => {
    const bodies: [string, string][] = [
      ["multipart/form-data", '{"n":"x"}'],
      ["multipart/form-data; boundary=zzz", "--zzz\r\nno headers, no end"],
    ];
    for (const path of ["/", "/api/%2e%2e", "/works"]) {
      for (const [type, data] of bodies) {
        const response = await request.post(`${BASE_URL}${path}`, {
          headers: { "content-type": type },
          data,
          failOnStatusCode: false,
          maxRedirects: 0,
        });
        expect([path, type, response.status()]).toEqual([path, type, 400]);
        expect((await response.json()).error.issues[0].path).toBe("body");
      }
    }
  });

  test("a forged X-Forwarded-Host does not make a cross-site cookie request same-site", async ({ request }) => {
    const cookies = (await request.storageState()).cookies.filter((c) => c.name === "gatehouse_session");
    expect(cookies).toHaveLength(1);
    const cookie = `gatehouse_session=${cookies[0].value}`;
    const work = await demoWork();
    const forged = { cookie, origin: "http://evil.example", "x-forwarded-host": "evil.example" };
    const dispatched = await send("POST", `/api/tasks/${work.taskId}/dispatch`, forged);
    expect([dispatched.status, dispatched.json.error.code]).toEqual([403, "forbidden"]);
    const renamed = await send(
      "PATCH",
      `/api/works/${work.id}`,
      { ...forged, "content-type": "application/json" },
      '{"name":"pwned"}',
    );
    expect(renamed.status).toBe(403);
    // Several forwarded hosts, the first the attacker's: still refused.
    const listed = await send("POST", `/api/tasks/${work.taskId}/dispatch`, {
      ...forged,
      "x-forwarded-host": `evil.example, ${new URL(BASE_URL).host}`,
    });
    expect(listed.status).toBe(403);
  });
});

test("ten parallel cancels of one running run: one 200, nine 409, one cancellation in the audit", async ({ page }) => {
  const { workId, taskId } = await workWithChecks("Cancel race", [
    { id: "long", name: "long", kind: "custom", command: "sleep 30", required: true },
  ]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 30_000 }).toBe("running");
  const answers = await Promise.all(Array.from({ length: 10 }, () => send("POST", `/api/runs/${runId}/cancel`, TOKEN)));
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses).toEqual([200, ...Array(9).fill(409)]);
  for (const refused of answers.filter((a) => a.status === 409))
    expect(refused.json.error.message).toMatch(/already cancelled or finished/);
  const audit = await api("GET", `/api/audit?workId=${workId}`);
  const events = audit.json.events as unknown as { action: string; summary: string }[];
  const cancels = events.filter((e) => e.action === "run.cancel");
  expect(cancels).toHaveLength(1);
  // Named as a dispatch is: whose run it was.
  expect(cancels[0].summary).toMatch(/^cancelled [A-Z0-9]+-\d+ \(run #1\)$/);
  const run = await runJson(runId);
  expect([run.status, run.ending]).toEqual(["finished", "rejected"]);
  // And once it has ended, one more cancel is a 409 too.
  expect((await send("POST", `/api/runs/${runId}/cancel`, TOKEN)).status).toBe(409);
  // On the Work's audit page the cancellation leads to its run.
  await page.goto(`/audit?workId=${workId}`);
  const entry = page.getByRole("listitem").filter({ hasText: "run.cancel" });
  await entry.getByRole("link", { name: "Open the run" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
});

// Issue 22, point 3: `next` after sign-in stays on this site after every normalisation a browser applies
// (tabs and newlines stripped, `\` read as `/`, dot segments resolved, percent-decoding of the query).
test.describe("after sign-in, next never leaves the site", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  for (const next of [
    "/%09/evil.example/",
    "/\t/evil.example/",
    "/%5Cevil.example",
    "/%5C/evil.example",
    "/.//evil.example",
    "/%0a/evil.example",
  ])
    test(`next=${JSON.stringify(next)} lands on this site`, async ({ browser }) => {
      const demo = await demoWork();
      const person = await personWithRole(demo.id, "viewer");
      const context = await browser.newContext();
      const page = await context.newPage();
      const seen: string[] = [];
      page.on("request", (r) => seen.push(new URL(r.url()).host));
      // The raw query as an attacker writes it in a link (the tab as a real character or as %09).
      await page.goto(`/signin?next=${next.includes("%") ? next : encodeURIComponent(next)}`);
      await page.getByLabel("Email").fill(person.email);
      await page.getByLabel("Password").fill(person.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByLabel(/^Account: /)).toBeVisible();
      expect(new URL(page.url()).host).toBe(new URL(BASE_URL).host);
      expect(seen.filter((h) => h.includes("evil.example"))).toEqual([]);
      await context.close();
    });
});

// Issue 22, point 7: a Work whose repository does not exist is warned about when saved, and its run, which
// ends inconclusive (could not clone), says "Inconclusive" on every chip that shows it — never "Gate green".
test("an inconclusive run's gate chip says Inconclusive on the run, task, Work and inbox pages", async ({ page }) => {
  const created = await api("POST", "/api/works", {
    name: `Missing repository ${Date.now()}`,
    repoUrl: "/nonexistent/repository.git",
    checkDefaults: [{ id: "unit", name: "unit", kind: "test", command: "true", required: true }],
  });
  expect(created.status).toBe(201);
  expect(created.json.warnings).toEqual([
    { path: "repoUrl", message: expect.stringContaining("/nonexistent/repository.git cannot be reached") },
  ]);
  const task = await api("POST", `/api/works/${created.json.id}/tasks`, { title: "Never cloned" });
  const runId = await dispatch(task.json.id);
  await expect.poll(async () => (await runJson(runId)).ending, { timeout: 60_000 }).toBe("inconclusive");
  for (const url of [`/runs/${runId}`, `/tasks/${task.json.id}`, `/works/${created.json.id}`]) {
    await page.goto(url);
    await expect(page.getByRole("status", { name: "Inconclusive" }).first(), url).toBeVisible();
    await expect(page.getByRole("status", { name: "Gate green" }), url).toHaveCount(0);
  }
  // The inbox lists other runs too: this run's own row says Inconclusive.
  await page.goto("/");
  const row = page.locator(`a[href="/runs/${runId}"]`).first();
  await expect(row.getByRole("status", { name: "Inconclusive" })).toBeVisible();
});

// Issue 22, point 7 in the browser: the new-Work form warns at once when the server cannot reach the
// repository (the Work is saved).
test("a new Work whose repository cannot be reached is saved with a warning on the page it opens", async ({ page }) => {
  await page.goto("/works");
  await page.getByRole("button", { name: "New Work" }).click();
  const form = page.getByRole("form", { name: "New Work" });
  await form.getByRole("textbox", { name: "Name", exact: true }).fill(`Typo ${Date.now()}`);
  await form.getByRole("textbox", { name: "Repository", exact: true }).fill("/nonexistent/typo-repository.git");
  await form.getByRole("button", { name: "Create Work" }).click();
  await expect(page).toHaveURL(/\/works\/[^/]+\/settings\?repo=unreachable$/);
  await expect(
    page.getByRole("alert").filter({ hasText: "/nonexistent/typo-repository.git cannot be reached" }),
  ).toBeVisible();
});

// Issue 22, point 5 in the browser: a viewer and an engineer see a held-out check's name and verdict only on
// the run, task, task editor (History), checks and inbox pages — not its command, its error reason or its
// durations.
test("held-out checks leak nothing to a viewer or an engineer on any page", async ({ browser }) => {
  const SECRET = "wombat-held-out-7731";
  const { workId, taskId } = await workWithChecks("Held-out pages", [
    { id: "visible", name: "visible", kind: "test", command: "true", required: true },
    {
      id: "held",
      name: "Held",
      kind: "test",
      command: `true # ${SECRET}-cmd`,
      required: true,
      hidden: true,
      cwd: `${SECRET}-cwd`,
    },
  ]);
  const task = await api("GET", `/api/tasks/${taskId}`);
  const patched = await api("PATCH", `/api/tasks/${taskId}`, {
    version: task.json.version,
    acceptanceChecks: [
      {
        id: "task-held",
        name: "Task held",
        kind: "test",
        command: `echo ${SECRET}-task`,
        required: false,
        hidden: true,
      },
    ],
  });
  expect(patched.status, JSON.stringify(patched.json)).toBe(200);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 60_000 }).toBe("finished");
  for (const role of ["viewer", "engineer"] as const) {
    const person = await personWithRole(workId, role);
    const { context, page } = await signedInContext(browser, person);
    for (const url of [`/runs/${runId}`, `/tasks/${taskId}`, `/tasks/${taskId}/edit`, `/works/${workId}/checks`, "/"]) {
      await page.goto(url);
      await expect(page.locator("main")).toBeVisible();
      expect(await page.content(), `${role} on ${url}`).not.toContain(SECRET);
    }
    // The held-out check's log page says whose it is, rather than failing.
    await page.goto(`/runs/${runId}/attempts/1/checks/held/log`);
    await expect(page.getByRole("heading", { name: "This log is shown to leads only" })).toBeVisible();
    expect(await page.content()).not.toContain(SECRET);
    if (role === "engineer") {
      // The task editor offers an engineer no way to override or suppress the Work's held-out check.
      await page.goto(`/tasks/${taskId}/edit`);
      const held = page.getByRole("listitem", { name: "Held (inherited)" });
      await expect(held).toContainText("Held out: a lead overrides or suppresses it");
      await expect(held.getByRole("button")).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Suppress visible" })).toBeVisible();
    }
    await context.close();
  }
});
