// Work secrets end to end, with real processes, git worktrees and SQLite: a lead sets a secret (sealed at
// rest, refused when too short to mask); a check gets it only when it lists the name in envPassthrough;
// its value — whole, split across two writes, or base64 — is *** in the log file, the log tail, the
// message, the brief, the full-log route and GET /api/runs/:id; platform-owned configuration never
// reaches a check or the agent, even when listed (written past the schema).
import { createHash } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { isAppError, type AppError } from "../errors";
import { createTokenWithPassword } from "../services/auth";
import { listSecrets, setSecret } from "../services/secrets";
import { createUser } from "../services/users";
import { callRoute } from "../testing/call-route";
import type { Json } from "../testing/json";
import type { Prisma } from "../db/models";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import type { OutputMasker } from "./output/masker";
import { makeSecretMasker } from "./output/secret-masker";
import { agentLogPathOf, briefPathOf, checkLogPathOf } from "./paths";
import { defaultRunnerDeps } from "./runtime";
import { loadWorkSecrets } from "./work-secrets";
import * as runRoute from "../../app/api/runs/[id]/route";
import * as logRoute from "../../app/api/runs/[id]/attempts/[n]/checks/[checkId]/log/route";
import * as secretsRoute from "../../app/api/works/[id]/secrets/route";
import * as secretRoute from "../../app/api/works/[id]/secrets/[name]/route";

const VALUE = "s3cr3t-value-42";
const B64 = Buffer.from(VALUE).toString("base64");

// The server's own environment: platform configuration a check must never see.
const PLATFORM = {
  DATABASE_URL: "postgres://admin:hunter2-db-password@db.internal/gatehouse",
  GATEHOUSE_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
  GATEHOUSE_BOOTSTRAP_TOKEN: "bootstrap-token-value-xyz",
};
const SERVER_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  LANG: "C.UTF-8",
  SERVER_ONLY_VAR: "server-side-value",
  ...PLATFORM,
};

// The base64 characters that encode only the value, when it follows `offset` other bytes.
function base64Core(value: string, offset: number): string {
  const bytes = Buffer.from(value);
  const encoded = Buffer.concat([Buffer.alloc(offset, 0x78), bytes, Buffer.from("\n")]).toString("base64");
  return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}

// Every way the value could show: itself, and any 10 characters in a row of one of its base64 forms.
const LEAK_FORMS = [B64, base64Core(VALUE, 1), base64Core(VALUE, 2)];
function expectNoLeak(text: string | null | undefined, what: string): void {
  const s = text ?? "";
  expect(s, `${what} shows the value`).not.toContain(VALUE);
  for (const form of LEAK_FORMS) {
    for (let i = 0; i + 10 <= form.length; i++)
      expect(s, `${what} shows base64 of the value (${form})`).not.toContain(form.slice(i, i + 10));
  }
}

// The real masker, recording the chunks it was given (to prove a split value arrived split).
const maskerInputs: Buffer[][] = [];
function recordingMasker(values: string[]): OutputMasker {
  const inner = makeSecretMasker(values);
  const chunks: Buffer[] = [];
  maskerInputs.push(chunks);
  return {
    push: (chunk) => {
      chunks.push(Buffer.from(chunk));
      return inner.push(chunk);
    },
    end: () => inner.end(),
    maskText: (text) => inner.maskText(text),
  };
}

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness({ serverEnv: SERVER_ENV, makeMasker: recordingMasker });
  const email = "secrets-admin@example.test";
  const password = "correct horse battery staple";
  await createUser(SYSTEM_ACTOR, { email, password, name: "Admin", admin: true });
  ({ token } = await createTokenWithPassword({ email, password, name: "secrets test" }, "secrets-test"));
});
afterAll(async () => h.cleanup());

async function getRunJson(runId: string): Promise<{ status: number; json: Json; text: string }> {
  return callRoute(runRoute.GET, { path: `/api/runs/${runId}`, params: { id: runId }, token });
}

async function getLog(runId: string, n: number, checkId: string): Promise<{ status: number; text: string }> {
  return callRoute(logRoute.GET, {
    path: `/api/runs/${runId}/attempts/${n}/checks/${checkId}/log`,
    params: { id: runId, n: String(n), checkId },
    token,
  });
}

describe("the runtime's wiring", () => {
  it("the server's runner decrypts the Work's secrets and masks with the secret masker", () => {
    const deps = defaultRunnerDeps();
    expect(deps.loadSecrets).toBe(loadWorkSecrets);
    expect(deps.makeMasker).toBe(makeSecretMasker);
  });
});

describe("setting a secret", () => {
  it("a value under 6 characters is refused, saying it could not be masked; 6 is enough", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("noop", "true")] });
    for (const short of ["", "a", "12345", "pässw"]) {
      const error = await errorOf(setSecret(SYSTEM_ACTOR, s.work.id, "SHORT_ONE", { value: short }));
      expect(error.code).toBe("validation");
      expect(error.message).toMatch(/at least 6 characters/);
      expect(error.message).toMatch(/mask/);
      expect(error.issues[0]?.path).toBe("value");
    }
    expect(await listSecrets(SYSTEM_ACTOR, s.work.id)).toEqual([]);
    expect(await setSecret(SYSTEM_ACTOR, s.work.id, "SHORT_ONE", { value: "123456" })).toEqual({
      name: "SHORT_ONE",
      created: true,
    });

    // Through the API: 400 naming the field and the rule.
    const res = await callRoute(secretRoute.PUT, {
      method: "PUT",
      params: { id: s.work.id, name: "OTHER" },
      body: { value: "abc" },
      token,
    });
    expect(res.status).toBe(400);
    expect(res.json.error.issues).toEqual([
      expect.objectContaining({ path: "value", message: expect.stringMatching(/mask/) }),
    ]);
  });

  it("platform-owned names cannot be secrets", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("noop", "true")] });
    for (const name of ["DATABASE_URL", "GATEHOUSE_SECRET_KEY", "gatehouse_data_dir", "NODE_OPTIONS"]) {
      const error = await errorOf(setSecret(SYSTEM_ACTOR, s.work.id, name, { value: "some-long-value" }));
      expect(error.code, name).toBe("validation");
      expect(error.message, name).toMatch(/never passed to checks/);
    }
  });

  it("the value is write-only: sealed in the database, never in an answer or the audit log", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("noop", "true")] });
    const put = await callRoute(secretRoute.PUT, {
      method: "PUT",
      params: { id: s.work.id, name: "API_KEY" },
      body: { value: VALUE },
      token,
    });
    expect(put.status).toBe(201);
    expect(put.json).toEqual({ name: "API_KEY", created: true });
    const again = await callRoute(secretRoute.PUT, {
      method: "PUT",
      params: { id: s.work.id, name: "API_KEY" },
      body: { value: VALUE },
      token,
    });
    expect(again.status).toBe(200);
    const list = await callRoute(secretsRoute.GET, { params: { id: s.work.id }, token });
    expect(list.status).toBe(200);
    expect(list.json.secrets.map((x) => x.name)).toEqual(["API_KEY"]);
    for (const text of [put.text, again.text, list.text]) expectNoLeak(text, "the secrets API");

    const rows = await h.t.db.secret.findMany({ where: { workId: s.work.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0].ciphertext).toMatch(/^v1:/);
    expectNoLeak(rows[0].ciphertext, "the stored ciphertext");
    expect(await loadWorkSecrets(s.work.id)).toEqual({ API_KEY: VALUE });

    const audit = await h.t.db.auditEvent.findMany({ where: { workId: s.work.id } });
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["secret.create", "secret.update"]));
    expectNoLeak(JSON.stringify(audit), "the audit log");
  });
});

describe("a check gets a secret only when it lists the name", () => {
  it("listed: the check sees the value; not listed: it does not; another Work's check never does", async () => {
    // The check compares a hash of what it got (the value itself written in a command would show in the
    // run's frozen checks, see the last test).
    const sha = createHash("sha256").update(VALUE).digest("hex").slice(0, 16);
    const s = await makeScenario(h, {
      checkDefaults: [
        check("granted", `test "$(printf %s "$API_KEY" | sha256sum | cut -c1-16)" = ${sha} && echo granted`, {
          envPassthrough: ["API_KEY"],
        }),
        check("not-granted", 'test -z "${API_KEY:-}" && echo absent'),
        check(
          "other-name",
          'test -z "${API_KEY:-}" && test "$SERVER_ONLY_VAR" = server-side-value && echo only-what-is-listed',
          { envPassthrough: ["SERVER_ONLY_VAR"] },
        ),
      ],
      maxGateAttempts: 1,
    });
    await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: VALUE });

    const other = await makeScenario(h, {
      checkDefaults: [check("foreign", 'test -z "${API_KEY:-}" && echo not-mine', { envPassthrough: ["API_KEY"] })],
      maxGateAttempts: 1,
    });

    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict, r.message])).toEqual([
      ["granted", "passed", "granted"],
      ["not-granted", "passed", "absent"],
      ["other-name", "passed", "only-what-is-listed"],
    ]);
    expect(detail.run.ending).toBe("accepted");

    const foreign = await dispatchAndSettle(h, other.task.id);
    expect(foreign.attempts[0].results.map((r) => [r.checkId, r.verdict, r.message])).toEqual([
      ["foreign", "passed", "not-mine"],
    ]);
  });

  it("the agent gets it only when agentEnvPassthrough lists it", async () => {
    const listed = await makeScenario(h, {
      checkDefaults: [check("noop", "true")],
      agentCommand: 'test "${#API_KEY}" = 15 && echo agent-has-it',
      agentEnvPassthrough: ["API_KEY"],
      maxGateAttempts: 1,
    });
    const unlisted = await makeScenario(h, {
      checkDefaults: [check("noop", "true")],
      agentCommand: 'test -z "${API_KEY:-}" && echo agent-has-none',
      maxGateAttempts: 1,
    });
    for (const s of [listed, unlisted]) await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: VALUE });
    const a = await dispatchAndSettle(h, listed.task.id);
    expect([a.attempts[0].agentVerdict, a.attempts[0].agentMessage]).toEqual(["passed", "agent-has-it"]);
    const b = await dispatchAndSettle(h, unlisted.task.id);
    expect([b.attempts[0].agentVerdict, b.attempts[0].agentMessage]).toEqual(["passed", "agent-has-none"]);
  });
});

describe("a value a check prints is *** everywhere it is stored or shown", () => {
  const CHECKS = [
    check("whole", 'echo "the key is $API_KEY, twice: $API_KEY$API_KEY"; echo "$API_KEY" >&2; echo "$API_KEY"', {
      envPassthrough: ["API_KEY"],
    }),
    // Two writes with a pause between them: the value reaches Gatehouse in two chunks.
    check("split", "printf 'key: s3cr3t-'; sleep 0.3; printf 'value-42\\n'"),
    check(
      "b64",
      [
        'printf %s "$API_KEY" | base64',
        'echo "$API_KEY" | base64',
        "printf 'x%s\\n' \"$API_KEY\" | base64",
        "printf 'xy%s\\n' \"$API_KEY\" | base64",
        'printf %s "$API_KEY" | base64',
      ].join("\n"),
      { envPassthrough: ["API_KEY"] },
    ),
  ];
  let runId: string;
  let detail: Awaited<ReturnType<typeof dispatchAndSettle>>;

  beforeAll(async () => {
    const s = await makeScenario(h, { checkDefaults: CHECKS, maxGateAttempts: 1 });
    await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: VALUE });
    maskerInputs.length = 0;
    detail = await dispatchAndSettle(h, s.task.id);
    runId = detail.run.id;
  });

  it("every check ran and passed; the split value really arrived in two chunks", () => {
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict])).toEqual([
      ["whole", "passed"],
      ["split", "passed"],
      ["b64", "passed"],
    ]);
    const split = maskerInputs.find((chunks) => chunks.some((c) => c.toString() === "key: s3cr3t-"));
    expect(split, "a masker that got 'key: s3cr3t-' as a chunk of its own").toBeDefined();
    expect(split!.map((c) => c.toString()).join("")).toBe(`key: ${VALUE}\n`);
  });

  it("the log file on disk", () => {
    const logs: Record<string, string> = Object.fromEntries(
      CHECKS.map((c) => [c.id as string, fs.readFileSync(checkLogPathOf(h.dataDir, runId, 1, c.id as string), "utf8")]),
    );
    expect(logs.whole).toBe("the key is ***, twice: ******\n***\n***\n");
    expect(logs.split).toBe("key: ***\n");
    expect(logs.b64.split("\n")[0]).toBe("***");
    expect(logs.b64.split("\n").filter(Boolean)).toHaveLength(5);
    for (const [id, text] of Object.entries(logs)) {
      expect(text, id).toContain("***");
      expectNoLeak(text, `log file of ${id}`);
    }
  });

  it("the log tail and the message of each result", () => {
    const byId = Object.fromEntries(detail.attempts[0].results.map((r) => [r.checkId, r]));
    expect(byId.whole.message).toBe("***");
    expect(byId.split.message).toBe("key: ***");
    expect(byId.b64.message).toBe("***");
    for (const r of detail.attempts[0].results) {
      expect(r.logTail, r.checkId).toContain("***");
      expectNoLeak(r.logTail, `logTail of ${r.checkId}`);
      expectNoLeak(r.message, `message of ${r.checkId}`);
    }
  });

  it("GET /api/runs/:id", async () => {
    const res = await getRunJson(runId);
    expect(res.status, res.text).toBe(200);
    expect(res.json.attempts[0].checks.map((c) => c.logTail)).toEqual(detail.attempts[0].results.map((r) => r.logTail));
    expect(res.text).toContain("***");
    expectNoLeak(res.text, "GET /api/runs/:id");
  });

  it("the full-log route", async () => {
    for (const c of CHECKS) {
      const res = await getLog(runId, 1, c.id as string);
      expect(res.status).toBe(200);
      expect(res.text).toContain("***");
      expectNoLeak(res.text, `log route of ${c.id}`);
    }
  });
});

describe("the brief", () => {
  it("a failing check's tail and the task description carry the value: the brief (stored and on \
disk) and the agent's output show ***", async () => {
    const s = await makeScenario(
      h,
      {
        checkDefaults: [
          check(
            "leaky",
            'echo "token=$API_KEY"; echo "b64=$(printf %s "$API_KEY" | base64)"; echo "failing on purpose"; exit 1',
            { envPassthrough: ["API_KEY"] },
          ),
        ],
        agentCommand: 'cat; echo "agent saw: $API_KEY"',
        agentEnvPassthrough: ["API_KEY"],
        maxGateAttempts: 2,
      },
      { task: { description: `Call the API with the key ${VALUE} (base64 ${B64}).` } },
    );
    await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: VALUE });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts).toHaveLength(2);
    expect(detail.run.ending).toBe("partial");

    const [first, second] = detail.attempts;
    expect(first.brief).toContain("Call the API with the key *** (base64 ***).");
    expect(second.brief).toContain("## What failed in attempt 1");
    expect(second.brief).toContain("token=***");
    expect(second.brief).toContain("b64=***");
    for (const a of detail.attempts) {
      expectNoLeak(a.brief, `brief of attempt ${a.n}`);
      const onDisk = fs.readFileSync(briefPathOf(h.dataDir, detail.run.id, a.n), "utf8");
      expect(onDisk).toBe(a.brief);
      expect(fs.statSync(briefPathOf(h.dataDir, detail.run.id, a.n)).mode & 0o777).toBe(0o600);
      expect(a.agentMessage).toBe("agent saw: ***");
      expectNoLeak(a.agentLogTail, `agent tail of attempt ${a.n}`);
      expectNoLeak(
        fs.readFileSync(agentLogPathOf(h.dataDir, detail.run.id, a.n), "utf8"),
        `agent log of attempt ${a.n}`,
      );
      const agentLog = await getLog(detail.run.id, a.n, "_agent");
      expect(agentLog.status).toBe(200);
      expect(agentLog.text).toContain("agent saw: ***");
      expectNoLeak(agentLog.text, `agent log route, attempt ${a.n}`);
    }
    const res = await getRunJson(detail.run.id);
    expect(res.status).toBe(200);
    expect(res.json.attempts[1].brief).toBe(second.brief);
    expectNoLeak(res.text, "GET /api/runs/:id of the agent run");
  });
});

describe("a secret that cannot be opened", () => {
  it("(sealed under another key, or tampered with) stops the run before any check runs unmasked", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [check("printer", 'echo "value: ${API_KEY:-none}"', { envPassthrough: ["API_KEY"] })],
      maxGateAttempts: 1,
    });
    await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: VALUE });
    const row = await h.t.db.secret.findFirstOrThrow({ where: { workId: s.work.id } });
    const parts = row.ciphertext.split(":");
    const bytes = Buffer.from(parts[3], "base64");
    bytes[0] ^= 0x01;
    parts[3] = bytes.toString("base64");
    await h.t.db.secret.update({ where: { id: row.id }, data: { ciphertext: parts.join(":") } });

    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.status).toBe("finished");
    expect(detail.run.ending).toBe("inconclusive");
    expect(
      detail.attempts.flatMap((a) => a.results).filter((r) => r.verdict === "passed" || r.verdict === "failed"),
    ).toEqual([]);
    expect(fs.existsSync(checkLogPathOf(h.dataDir, detail.run.id, 1, "printer"))).toBe(false);
    expectNoLeak(detail.run.endingReason, "the ending reason");
  });

  // A secret that cannot be decrypted (the key changed) stops the run before anything runs, and says so.
  it("…and says so: every check gets an error result naming the secret, and the gate is not left running", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [check("printer", "true", { envPassthrough: ["API_KEY"] })],
      maxGateAttempts: 1,
    });
    await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: VALUE });
    await h.t.db.secret.updateMany({
      where: { workId: s.work.id },
      data: { ciphertext: "v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==:AAAA" },
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("inconclusive");
    expect(detail.run.endingReason).toMatch(/secret/i);
    expect(detail.run.gate).not.toBe("running");
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict])).toEqual([["printer", "error"]]);
  });
});

describe("platform-owned configuration", () => {
  it("listed in a check's and the agent's envPassthrough (past the schema), it never reaches them; \
the listed secret does", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("env", "env")], agentCommand: "env", maxGateAttempts: 1 });
    await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: VALUE });
    const listed = [
      "DATABASE_URL",
      "GATEHOUSE_SECRET_KEY",
      "GATEHOUSE_BOOTSTRAP_TOKEN",
      "gatehouse_secret_key",
      "API_KEY",
    ];
    const command = [
      "env",
      'test -z "${DATABASE_URL:-}"',
      'test -z "${GATEHOUSE_SECRET_KEY:-}"',
      'test -z "${GATEHOUSE_BOOTSTRAP_TOKEN:-}"',
      'test -z "${gatehouse_secret_key:-}"',
      'test "${#API_KEY}" = 15',
      "echo clean",
    ].join("\n");
    // Written past the schema, as an older or tampered database row would be.
    await h.t.db.work.update({
      where: { id: s.work.id },
      data: {
        checkDefaults: [check("env", command, { envPassthrough: listed })] as Prisma.InputJsonValue,
        agentEnvPassthrough: listed,
        agentCommand: command,
      },
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.checks[0].envPassthrough).toEqual(listed);
    const [attempt] = detail.attempts;
    expect([attempt.agentVerdict, attempt.agentMessage]).toEqual(["passed", "clean"]);
    expect(attempt.results.map((r) => [r.checkId, r.verdict, r.message])).toEqual([["env", "passed", "clean"]]);

    const checkLog = fs.readFileSync(checkLogPathOf(h.dataDir, detail.run.id, 1, "env"), "utf8");
    const agentLog = fs.readFileSync(agentLogPathOf(h.dataDir, detail.run.id, 1), "utf8");
    for (const [what, text] of [
      ["check", checkLog],
      ["agent", agentLog],
    ]) {
      expect(text, what).toMatch(/^API_KEY=\*\*\*$/m);
      expect(text, what).not.toMatch(
        /^(DATABASE_URL|GATEHOUSE_SECRET_KEY|GATEHOUSE_BOOTSTRAP_TOKEN|gatehouse_secret_key)=/m,
      );
      for (const v of Object.values(PLATFORM)) expect(text, what).not.toContain(v);
      expect(text, what).not.toContain("hunter2");
      expectNoLeak(text, `${what} env`);
    }
  });

  // Reading the platform's files is prevented by GATEHOUSE_RUN_AS: see run-as.test.ts.
});

// A value written literally in a command is masked in GET /api/runs/:id as it is in the brief.
it("a value written literally in a check command is masked in GET /api/runs/:id as it is in the brief", async () => {
  const s = await makeScenario(h, {
    checkDefaults: [check("literal", `test "$API_KEY" = "${VALUE}" && echo ok`, { envPassthrough: ["API_KEY"] })],
    agentCommand: "cat > /dev/null",
    maxGateAttempts: 1,
  });
  await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: VALUE });
  const detail = await dispatchAndSettle(h, s.task.id);
  expect(detail.attempts[0].results[0].verdict).toBe("passed");
  expect(detail.attempts[0].brief).toContain(`test "$API_KEY" = "***" && echo ok`);
  expectNoLeak(detail.attempts[0].brief, "the brief");
  const res = await getRunJson(detail.run.id);
  expect(res.status).toBe(200);
  expectNoLeak(res.text, "GET /api/runs/:id");
});
