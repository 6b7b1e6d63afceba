// The trust boundary of the JSON API: every route but /api/health and POST /api/auth/token needs
// credentials (401 otherwise, for malformed, unknown, revoked or expired ones too); a session cookie
// cannot be used cross-site for a change; the log route cannot be made to read any other file.
// Real SQLite, real runs in-process.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { sha256 } from "@/lib/auth/tokens";
import { callRoute } from "@/lib/testing/call-route";
import { check, createHarness, makeScenario, settle, type Harness, type Scenario } from "@/lib/testing/runner-harness";
import {
  expectNoChange,
  expectUnauthorized,
  expectWorkNotFound,
  grant,
  makePerson,
  snapshotState,
  type Person,
} from "@/lib/testing/access-fixture";
import { dispatchTask } from "@/lib/services/runs";
import { revokeTokenOfActor, signIn } from "@/lib/services/auth";
import { checkLogPathOf } from "@/lib/runner/paths";
import * as health from "./health/route";
import * as authToken from "./auth/token/route";
import * as works from "./works/route";
import * as work from "./works/[id]/route";
import * as workTasks from "./works/[id]/tasks/route";
import * as task from "./tasks/[id]/route";
import * as dispatch from "./tasks/[id]/dispatch/route";
import * as run from "./runs/[id]/route";
import * as attempts from "./runs/[id]/attempts/route";
import * as cancel from "./runs/[id]/cancel/route";
import * as decision from "./runs/[id]/decision/route";
import * as log from "./runs/[id]/attempts/[n]/checks/[checkId]/log/route";
import * as secrets from "./works/[id]/secrets/route";
import * as secret from "./works/[id]/secrets/[name]/route";
import * as members from "./works/[id]/members/route";
import * as member from "./works/[id]/members/[userId]/route";
import * as users from "./users/route";
import * as audit from "./audit/route";

let h: Harness;
// Work A: failFast, a red check that prints a marker, then a check that is skipped (never runs).
let A: Scenario;
// Work B: the engineer of A has no role on it.
let B: Scenario;
let runA: string; // waiting for a fix after attempt 1
let runB: string;
let engineer: Person; // engineer on A only
let admin: Person;

const MARKER_A = "log-line-of-work-a";
const MARKER_B = "log-line-of-work-b";

beforeAll(async () => {
  h = await createHarness();
  A = await makeScenario(h, {
    failFast: true,
    maxGateAttempts: 3,
    checkDefaults: [check("red", `echo ${MARKER_A}; false`), check("later", "echo never-runs")],
  });
  B = await makeScenario(h, { checkDefaults: [check("red", `echo ${MARKER_B}; false`)], maxGateAttempts: 3 });
  engineer = await makePerson("engineer");
  admin = await makePerson("admin", { admin: true });
  await grant(A.work.id, engineer, "engineer");
  runA = (await dispatchTask(SYSTEM_ACTOR, A.task.id)).id;
  runB = (await dispatchTask(SYSTEM_ACTOR, B.task.id)).id;
  const [a, b] = await Promise.all([settle(h, runA), settle(h, runB)]);
  expect(a.run.status).toBe("waiting");
  expect(b.run.status).toBe("waiting");
  // First use of a token is audited; do it now so snapshots later compare like with like.
  for (const p of [engineer, admin]) expect((await callRoute(works.GET, { token: p.token })).status).toBe(200);
});
afterAll(async () => h?.cleanup());

type Res = Awaited<ReturnType<typeof callRoute>>;
type Call = (opts: { token?: string; headers?: Record<string, string> }) => Promise<Res>;

// Every protected route, each with valid ids and a valid body, so only the credentials are missing.
function protectedRoutes(): [string, Call][] {
  const wid = A.work.id;
  return [
    ["GET /api/works", (o) => callRoute(works.GET, o)],
    [
      "POST /api/works",
      (o) => callRoute(works.POST, { ...o, method: "POST", body: { name: "Sneaky", repoUrl: A.repo.dir } }),
    ],
    ["GET /api/works/:id", (o) => callRoute(work.GET, { ...o, params: { id: wid } })],
    [
      "PATCH /api/works/:id",
      (o) =>
        callRoute(work.PATCH, {
          ...o,
          method: "PATCH",
          params: { id: wid },
          body: { version: A.work.version, checksPolicy: "off" },
        }),
    ],
    ["GET /api/works/:id/tasks", (o) => callRoute(workTasks.GET, { ...o, params: { id: wid } })],
    [
      "POST /api/works/:id/tasks",
      (o) => callRoute(workTasks.POST, { ...o, method: "POST", params: { id: wid }, body: { title: "Sneaky" } }),
    ],
    ["GET /api/tasks/:id", (o) => callRoute(task.GET, { ...o, params: { id: A.task.id } })],
    [
      "PATCH /api/tasks/:id",
      (o) =>
        callRoute(task.PATCH, {
          ...o,
          method: "PATCH",
          params: { id: A.task.id },
          body: { version: A.task.version, title: "Sneaky" },
        }),
    ],
    [
      "POST /api/tasks/:id/dispatch",
      (o) => callRoute(dispatch.POST, { ...o, method: "POST", params: { id: B.task.id } }),
    ],
    ["GET /api/runs/:id", (o) => callRoute(run.GET, { ...o, params: { id: runA } })],
    ["POST /api/runs/:id/attempts", (o) => callRoute(attempts.POST, { ...o, method: "POST", params: { id: runA } })],
    [
      "POST /api/runs/:id/decision",
      (o) => callRoute(decision.POST, { ...o, method: "POST", params: { id: runA }, body: { choice: "accept" } }),
    ],
    ["POST /api/runs/:id/cancel", (o) => callRoute(cancel.POST, { ...o, method: "POST", params: { id: runA } })],
    [
      "GET /api/runs/:id/attempts/:n/checks/:checkId/log",
      (o) => callRoute(log.GET, { ...o, params: { id: runA, n: "1", checkId: "red" } }),
    ],
    ["GET /api/works/:id/secrets", (o) => callRoute(secrets.GET, { ...o, params: { id: wid } })],
    [
      "PUT /api/works/:id/secrets/:name",
      (o) =>
        callRoute(secret.PUT, {
          ...o,
          method: "PUT",
          params: { id: wid, name: "API_KEY" },
          body: { value: "sneaky-value" },
        }),
    ],
    [
      "DELETE /api/works/:id/secrets/:name",
      (o) => callRoute(secret.DELETE, { ...o, method: "DELETE", params: { id: wid, name: "API_KEY" } }),
    ],
    ["GET /api/works/:id/members", (o) => callRoute(members.GET, { ...o, params: { id: wid } })],
    [
      "PUT /api/works/:id/members/:userId",
      (o) =>
        callRoute(member.PUT, {
          ...o,
          method: "PUT",
          params: { id: wid, userId: engineer.id },
          body: { role: "lead" },
        }),
    ],
    [
      "DELETE /api/works/:id/members/:userId",
      (o) => callRoute(member.DELETE, { ...o, method: "DELETE", params: { id: wid, userId: engineer.id } }),
    ],
    ["GET /api/users", (o) => callRoute(users.GET, o)],
    [
      "POST /api/users",
      (o) =>
        callRoute(users.POST, {
          ...o,
          method: "POST",
          body: { email: "sneaky@example.test", password: "long-enough-password" },
        }),
    ],
    ["GET /api/audit", (o) => callRoute(audit.GET, o)],
  ];
}

describe("no credentials", () => {
  it("every protected route (reads and changes) answers 401 with a Bearer challenge and changes nothing", async () => {
    const routes = protectedRoutes();
    expect(routes).toHaveLength(23);
    for (const [name, call] of routes) {
      const res = await expectNoChange(h.t.db, () => call({}));
      expectUnauthorized(res);
      expect(res.json.error.message, name).toMatch(/sign in|Bearer/);
      expect(res.headers.get("www-authenticate"), name).toMatch(/^Bearer/);
      expect(res.text, name).not.toContain(MARKER_A);
    }
  });

  it("GET /api/health answers 200 without credentials (and ignores a bad token)", async () => {
    const res = await callRoute(health.GET);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "ok" });
    expect((await callRoute(health.GET, { token: "not-a-token" })).status).toBe(200);
  });

  it("POST /api/auth/token is reachable without credentials: bad input is 400 naming the fields, \
wrong credentials 401 — never 'sign in'", async () => {
    const empty = await callRoute(authToken.POST, {
      method: "POST",
      body: {},
      headers: { "x-forwarded-for": "10.1.0.1" },
    });
    expect(empty.status, empty.text).toBe(400);
    expect(empty.json.error.code).toBe("validation");
    expect(empty.json.error.issues.map((i) => i.path).sort()).toEqual(["email", "name", "password"]);
    const notJson = await callRoute(authToken.POST, {
      method: "POST",
      body: "{nope",
      headers: { "x-forwarded-for": "10.1.0.1" },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.issues[0].path).toBe("body");
    const wrong = await callRoute(authToken.POST, {
      method: "POST",
      body: { email: engineer.email, password: "not-the-password", name: "cli" },
      headers: { "x-forwarded-for": "10.1.0.2" },
    });
    expectUnauthorized(wrong);
    expect(wrong.json.error.message).toBe("wrong email or password");
    for (const res of [empty, notJson, wrong]) expect(res.json.error.message).not.toMatch(/sign in/i);
  });
});

describe("bad credentials", () => {
  const get = (headers: Record<string, string>) => callRoute(works.GET, { headers });
  const post = (headers: Record<string, string>) =>
    expectNoChange(h.t.db, () =>
      callRoute(workTasks.POST, { method: "POST", params: { id: A.work.id }, body: { title: "Sneaky" }, headers }),
    );

  it.each([
    ["Basic credentials", "Basic ZW5naW5lZXI6cGFzc3dvcmQ="],
    ["Bearer without a token", "Bearer"],
    ["Bearer with only spaces", "Bearer    "],
    ["two words after Bearer", "Bearer abc def"],
    ["another scheme", "Token gh_abc"],
    ["a bare token", "gh_abcdefghijklmnopqrstuvwxyz"],
  ])("a malformed Authorization header (%s) is 401, for reads and changes", async (_what, value) => {
    for (const res of [await get({ authorization: value }), await post({ authorization: value })]) {
      expectUnauthorized(res);
      expect(res.json.error.message).toContain("Bearer");
    }
  });

  it("a malformed header is refused even beside a valid token's look-alike", async () => {
    expectUnauthorized(await get({ authorization: `Basic ${engineer.token}` }));
    expectUnauthorized(await get({ authorization: `${engineer.token}` }));
  });

  it("an unknown token is 401 'unknown or revoked'", async () => {
    for (const token of ["gh_unknown", `${engineer.token}x`, engineer.token.slice(0, -1), sha256(engineer.token)]) {
      const res = await callRoute(works.GET, { token });
      expectUnauthorized(res);
      expect(res.json.error.message).toMatch(/unknown or revoked/);
    }
  });

  it("a revoked token is 401 at once, for reads and changes", async () => {
    const p = await makePerson("revoked");
    await grant(A.work.id, p, "engineer");
    expect((await callRoute(works.GET, { token: p.token })).status).toBe(200);
    await revokeTokenOfActor(
      { userId: p.id, label: "revoked", email: p.email, isAdmin: false, via: "session", tokenId: null },
      p.tokenId,
    );
    const read = await callRoute(work.GET, { token: p.token, params: { id: A.work.id } });
    expectUnauthorized(read);
    expect(read.json.error.message).toMatch(/unknown or revoked/);
    expectUnauthorized(await post({ authorization: `Bearer ${p.token}` }));
  });

  it("an unknown or expired session cookie is 401; an expired session is removed", async () => {
    expectUnauthorized(await get({ cookie: "gatehouse_session=not-a-session" }));
    const { token } = await signIn({ email: engineer.email, password: engineer.password }, "test");
    expect((await get({ cookie: `gatehouse_session=${token}` })).status).toBe(200);
    await h.t.db.session.update({ where: { id: sha256(token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectUnauthorized(await get({ cookie: `gatehouse_session=${token}` }));
    expect(await h.t.db.session.count({ where: { id: sha256(token) } })).toBe(0);
  });

  it("the session table stores only a hash of the cookie's value", async () => {
    const { token } = await signIn({ email: engineer.email, password: engineer.password }, "test");
    const rows = await h.t.db.session.findMany();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.map((r) => r.id)).toContain(sha256(token));
  });
});

// ---- cross-site requests with a session cookie -----------------------------------------------------

describe("cross-site requests with a session cookie", () => {
  let cookie: string;
  beforeAll(async () => {
    const session = await signIn({ email: engineer.email, password: engineer.password }, "test");
    cookie = `gatehouse_session=${session.token}`;
  });

  const currentTask = () => h.t.db.task.findUniqueOrThrow({ where: { id: A.task.id } });
  const postTask = (headers: Record<string, string>) =>
    callRoute(workTasks.POST, {
      method: "POST",
      params: { id: A.work.id },
      body: { title: "From a cookie" },
      headers: { cookie, ...headers },
    });
  const patchTask = async (headers: Record<string, string>) => {
    const t = await currentTask();
    return callRoute(task.PATCH, {
      method: "PATCH",
      params: { id: t.id },
      body: { version: t.version, description: `edited ${Date.now()}` },
      headers: { cookie, ...headers },
    });
  };

  it.each([
    ["a foreign Origin", { origin: "http://evil.example", host: "localhost" }],
    ["a foreign Origin on the same host name but another port", { origin: "http://localhost:8080", host: "localhost" }],
    ["Origin: null (sandboxed frame)", { origin: "null", host: "localhost" }],
    ["an unparsable Origin", { origin: "not a url", host: "localhost" }],
    ["no Origin but Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site", host: "localhost" }],
    ["no Origin but a foreign Referer", { referer: "http://evil.example/page", host: "localhost" }],
  ])("POST and PATCH with %s → 403, and nothing changes", async (_what, headers) => {
    for (const send of [postTask, patchTask]) {
      const res = await expectNoChange(h.t.db, () => send(headers));
      expect(res.status, res.text).toBe(403);
      expect(res.json.error.code).toBe("forbidden");
      expect(res.json.error.message).toMatch(/cross-site/);
    }
  });

  it("DELETE, PUT and the run actions cross-site → 403 too", async () => {
    const headers = { cookie, origin: "http://evil.example", host: "localhost" };
    const calls = [
      () => callRoute(member.DELETE, { method: "DELETE", params: { id: A.work.id, userId: engineer.id }, headers }),
      () =>
        callRoute(member.PUT, {
          method: "PUT",
          params: { id: A.work.id, userId: engineer.id },
          body: { role: "lead" },
          headers,
        }),
      () => callRoute(attempts.POST, { method: "POST", params: { id: runA }, headers }),
      () => callRoute(cancel.POST, { method: "POST", params: { id: runA }, headers }),
    ];
    for (const call of calls) {
      const res = await expectNoChange(h.t.db, call);
      expect(res.status, res.text).toBe(403);
      expect(res.json.error.message).toMatch(/cross-site/);
    }
  });

  it("the same POST and PATCH from the site itself (matching Origin, or none) work", async () => {
    const sameOrigin = await postTask({ origin: "http://localhost", host: "localhost" });
    expect(sameOrigin.status, sameOrigin.text).toBe(201);
    const noOrigin = await postTask({ host: "localhost" });
    expect(noOrigin.status, noOrigin.text).toBe(201);
    const sameSite = await postTask({ host: "localhost", "sec-fetch-site": "same-origin" });
    expect(sameSite.status, sameSite.text).toBe(201);
    const ownReferer = await postTask({ host: "localhost", referer: "http://localhost/tasks/x" });
    expect(ownReferer.status, ownReferer.text).toBe(201);
    const before = (await currentTask()).version;
    const patched = await patchTask({ origin: "http://localhost:3000", host: "localhost:3000" });
    expect(patched.status, patched.text).toBe(200);
    expect((await currentTask()).version).toBe(before + 1);
    // Behind a trusted proxy (GATEHOUSE_TRUST_PROXY=1), the forwarded host is the one the browser saw;
    // without it, anyone could send X-Forwarded-Host, so it is ignored.
    const viaProxy = {
      origin: "https://gatehouse.example",
      host: "127.0.0.1:3000",
      "x-forwarded-host": "gatehouse.example",
    };
    const untrusted = await postTask(viaProxy);
    expect(untrusted.status, untrusted.text).toBe(403);
    process.env.GATEHOUSE_TRUST_PROXY = "1";
    try {
      const proxied = await postTask(viaProxy);
      expect(proxied.status, proxied.text).toBe(201);
    } finally {
      delete process.env.GATEHOUSE_TRUST_PROXY;
    }
  });

  it("a GET with a foreign Origin is fine (reads change nothing)", async () => {
    const res = await callRoute(work.GET, {
      params: { id: A.work.id },
      headers: { cookie, origin: "http://evil.example", host: "localhost", "sec-fetch-site": "cross-site" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.id).toBe(A.work.id);
  });

  it("a Bearer token is not ambient: a foreign Origin does not matter for it", async () => {
    const res = await callRoute(workTasks.POST, {
      method: "POST",
      params: { id: A.work.id },
      body: { title: "From a script" },
      token: engineer.token,
      headers: { origin: "http://evil.example", host: "localhost" },
    });
    expect(res.status, res.text).toBe(201);
  });
});

// ---- the log route cannot be made to read other files -----------------------------------------------

describe("log route attacks", () => {
  const getLog = (params: { id: string; n: string; checkId: string }, token = engineer.token) =>
    callRoute(log.GET, { token, params });

  // Never file contents: a JSON error, no text of the log, of /etc/passwd or of the data dir's files.
  function expectRefusal(res: Res, statuses: number[]) {
    expect(statuses, `${res.status} ${res.text}`).toContain(res.status);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.json?.error?.code).toMatch(/validation|not_found/);
    expect(res.text).not.toContain(MARKER_A);
    expect(res.text).not.toContain(MARKER_B);
    expect(res.text).not.toMatch(/root:.*:0:0:/);
  }

  it("a legitimate log is 200 text/plain, nosniff, sandboxed, exactly the file on disk", async () => {
    const res = await getLog({ id: runA, n: "1", checkId: "red" });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toMatch(/sandbox/);
    expect(res.text).toContain(MARKER_A);
    expect(res.text).toBe(fs.readFileSync(checkLogPathOf(h.dataDir, runA, 1, "red"), "utf8"));
  });

  it("a finished log is revalidated at every read: its ETag answers 304 with no body, only to a reader \
who may still see it", async () => {
    const params = { id: runA, n: "1", checkId: "red" };
    const first = await getLog(params);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    const again = await callRoute(log.GET, { token: engineer.token, params, headers: { "if-none-match": etag! } });
    expect([again.status, again.text]).toEqual([304, ""]);
    // Someone with no role on the Work: the same tag gets them nothing.
    const stranger = await makePerson("log-stranger");
    const refused = await callRoute(log.GET, { token: stranger.token, params, headers: { "if-none-match": etag! } });
    expectWorkNotFound(refused);
  });

  it.each(["../../..", "0", "1.5", "%2e%2e", "..", "-1", "01", "1e0", " 1", "1/../1", "0x1", ""])(
    "attempt number %j → 400",
    async (n) => {
      const res = await getLog({ id: runA, n, checkId: "red" });
      expectRefusal(res, [400]);
      // The field is named as the message names it.
      expect(res.json.error.issues).toEqual([{ path: "attempt", message: "must be an attempt number" }]);
    },
  );

  it.each([
    "../../../etc/passwd",
    "..%2Fetc",
    "../etc",
    "..",
    "red/../red",
    "red.log",
    "_brief",
    "UNIT",
    "RED",
    "red\u0000",
    "%2e%2e%2fetc%2fpasswd",
    "/etc/passwd",
    "",
  ])("check id %j → 400 or 404", async (checkId) => {
    expectRefusal(await getLog({ id: runA, n: "1", checkId }), [400, 404]);
  });

  it("a brief or key file placed where a log would be is never served", async () => {
    // Files the data dir holds beside logs: the brief of an attempt, the secret key.
    const dir = path.dirname(checkLogPathOf(h.dataDir, runA, 1, "red"));
    fs.writeFileSync(path.join(dir, "_brief.md"), "BRIEF-CONTENT");
    for (const checkId of ["_brief", "_brief.md", "secret.key", "../../secret.key"]) {
      const res = await getLog({ id: runA, n: "1", checkId });
      expectRefusal(res, [400, 404]);
      expect(res.text).not.toContain("BRIEF-CONTENT");
    }
  });

  it("a check that did not run in that attempt → 404 (skipped by failFast, unknown id, the agent of \
a run without one)", async () => {
    const detail = await settle(h, runA);
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict])).toEqual([
      ["red", "failed"],
      ["later", "skipped"],
    ]);
    expectRefusal(await getLog({ id: runA, n: "1", checkId: "later" }), [404]);
    expectRefusal(await getLog({ id: runA, n: "1", checkId: "nosuch" }), [404]);
    expectRefusal(await getLog({ id: runA, n: "1", checkId: "_agent" }), [404]);
  });

  it("an attempt that does not exist → 404", async () => {
    expectRefusal(await getLog({ id: runA, n: "2", checkId: "red" }), [404]);
    expectRefusal(await getLog({ id: runA, n: "9999", checkId: "red" }), [400, 404]);
  });

  it("a run of another Work the caller cannot see → 404 'Work not found', not its log", async () => {
    const res = await getLog({ id: runB, n: "1", checkId: "red" });
    expectRefusal(res, [404]);
    expectWorkNotFound(res);
    // The admin sees it: the refusal above is about access, not a broken log.
    const asAdmin = await getLog({ id: runB, n: "1", checkId: "red" }, admin.token);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.text).toContain(MARKER_B);
  });

  it("a run id that is a path → 404", async () => {
    for (const id of ["..", "../../etc", `${runA}/../${runB}`, `../${runB}`])
      expectRefusal(await getLog({ id, n: "1", checkId: "red" }), [404]);
  });

  it("nothing was written by the attacks", async () => {
    const before = await snapshotState(h.t.db);
    await getLog({ id: runA, n: "../../..", checkId: "../../../etc/passwd" });
    expect(await snapshotState(h.t.db)).toBe(before);
  });
});
