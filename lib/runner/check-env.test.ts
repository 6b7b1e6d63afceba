// The scrubbed environment: the fixed minimal set, plus exactly the listed names, never platform-owned
// configuration — checked on buildCheckEnv itself, on a real process running `env`, and on a real run
// whose frozen checks list forbidden names (written to the database directly, past the schema).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCheckEnv, processMarkers, systemPathOf, type EnvInput } from "./check-env";
import { agentHomeOf, attemptHomeOf } from "./paths";
import { NO_MASKING } from "./output/masker";
import { runCommand } from "./process/run-command";
import type { Prisma } from "../db/models";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";

// What bash itself adds to the environment of the commands it runs.
const BASH_ADDED = new Set(["PWD", "SHLVL", "_"]);
const FIXED_NAMES = [
  "CI",
  "GATEHOUSE_ATTEMPT",
  "GATEHOUSE_CHECK_ID",
  "GATEHOUSE_RUN_ID",
  "HOME",
  "LANG",
  "PATH",
  "TERM",
];

// A server environment full of things a check must never see.
const SERVER_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  LANG: "C.UTF-8",
  HOME: "/root/the-operators-home",
  USER: "operator",
  SHELL: "/bin/zsh",
  TERM: "dumb",
  CI: "false",
  DATABASE_URL: "postgres://admin:hunter2@db/gatehouse",
  DIRECT_URL: "postgres://admin:hunter2@db/direct",
  PGPASSWORD: "hunter2",
  GATEHOUSE_BOOTSTRAP_TOKEN: "bootstrap-token-value",
  GATEHOUSE_ADMIN_PASSWORD: "admin-password-value",
  GATEHOUSE_DATA_DIR: "/srv/gatehouse",
  GATEHOUSE_RUN_ID: "server-run-id",
  NEXT_AUTH_SECRET: "next-secret",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  NODE_OPTIONS: "--require /evil.js",
  LD_PRELOAD: "/evil.so",
  BASH_ENV: "/evil.sh",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  FOO_TOKEN: "foo-from-server",
  BAR: "bar-from-server",
};

const FORBIDDEN_LISTED = [
  "DATABASE_URL",
  "DIRECT_URL",
  "PGPASSWORD",
  "GATEHOUSE_BOOTSTRAP_TOKEN",
  "GATEHOUSE_ADMIN_PASSWORD",
  "GATEHOUSE_DATA_DIR",
  "gatehouse_data_dir",
  "NEXT_AUTH_SECRET",
  "PRISMA_HIDE_UPDATE_MESSAGE",
  "NODE_OPTIONS",
  "LD_PRELOAD",
  "BASH_ENV",
];

function input(extra: Partial<EnvInput> = {}): EnvInput {
  return {
    runId: "run-1",
    attempt: 2,
    checkId: "unit",
    passthrough: [],
    secrets: {},
    serverEnv: SERVER_ENV,
    home: "/data/home",
    ...extra,
  };
}

function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

function withoutBashAdded(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !BASH_ADDED.has(k)));
}

describe("buildCheckEnv", () => {
  it("is the fixed minimal set when nothing is listed", () => {
    const env = buildCheckEnv(input());
    expect(env).toEqual({
      PATH: systemPathOf(SERVER_ENV.PATH),
      HOME: "/data/home",
      LANG: "C.UTF-8",
      TERM: "xterm-256color",
      CI: "true",
      GATEHOUSE_RUN_ID: "run-1",
      GATEHOUSE_ATTEMPT: "2",
      GATEHOUSE_CHECK_ID: "unit",
    });
  });

  it("adds exactly the listed names, secrets before the server's environment; unset names are left out", () => {
    const env = buildCheckEnv(
      input({
        passthrough: ["FOO_TOKEN", "BAR", "NOT_SET_ANYWHERE"],
        secrets: { FOO_TOKEN: "foo-from-secret", UNLISTED_SECRET: "x" },
      }),
    );
    expect(Object.keys(env).sort()).toEqual([...FIXED_NAMES, "BAR", "FOO_TOKEN"].sort());
    expect(env.FOO_TOKEN).toBe("foo-from-secret");
    expect(env.BAR).toBe("bar-from-server");
    expect(env).not.toHaveProperty("UNLISTED_SECRET");
    expect(env).not.toHaveProperty("AWS_SECRET_ACCESS_KEY");
  });

  it("never grants platform-owned names, even when listed (schema bypassed) and present as server \
env or secrets", () => {
    const secrets = Object.fromEntries(FORBIDDEN_LISTED.map((n) => [n, `secret-${n}`]));
    const env = buildCheckEnv(input({ passthrough: [...FORBIDDEN_LISTED, "FOO_TOKEN"], secrets }));
    expect(Object.keys(env).sort()).toEqual([...FIXED_NAMES, "FOO_TOKEN"].sort());
    for (const name of Object.keys(env)) {
      if (name.startsWith("GATEHOUSE_"))
        expect(["GATEHOUSE_RUN_ID", "GATEHOUSE_ATTEMPT", "GATEHOUSE_CHECK_ID"]).toContain(name);
    }
    expect(JSON.stringify(env)).not.toMatch(/hunter2|bootstrap-token-value|admin-password-value|next-secret|evil/);
  });

  it("PATH is the system's: never Gatehouse's node_modules/.bin, npm's run-script helpers or its \
install folder", () => {
    const serverPath = [
      "/srv/gatehouse/node_modules/.bin",
      "/srv/node_modules/.bin",
      "/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin",
      "/srv/gatehouse/bin",
      "relative/bin",
      "/opt/toolchain/bin",
      "/usr/bin",
      "/usr/bin",
      "/bin",
    ].join(":");
    expect(systemPathOf(serverPath, "/srv/gatehouse")).toBe("/opt/toolchain/bin:/usr/bin:/bin");
    expect(buildCheckEnv(input({ serverEnv: { PATH: serverPath } })).PATH).not.toContain("node_modules");
    expect(systemPathOf("/srv/gatehouse/node_modules/.bin", "/srv/gatehouse")).toBe(
      "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    );
  });

  it("listing a fixed name never overrides it (a secret cannot forge the run id, HOME or PATH)", () => {
    const env = buildCheckEnv(
      input({
        passthrough: [
          "GATEHOUSE_RUN_ID",
          "GATEHOUSE_ATTEMPT",
          "GATEHOUSE_CHECK_ID",
          "GATEHOUSE_BRIEF_FILE",
          "HOME",
          "PATH",
          "CI",
          "TERM",
        ],
        secrets: {
          GATEHOUSE_RUN_ID: "forged",
          HOME: "/forged",
          PATH: "/forged",
          CI: "false",
          GATEHOUSE_BRIEF_FILE: "/forged",
        },
      }),
    );
    expect(env.GATEHOUSE_RUN_ID).toBe("run-1");
    expect(env.HOME).toBe("/data/home");
    expect(env.PATH).toBe(systemPathOf(SERVER_ENV.PATH));
    expect(env.CI).toBe("true");
    expect(env.TERM).toBe("xterm-256color");
    expect(env).not.toHaveProperty("GATEHOUSE_BRIEF_FILE");
  });

  it("the agent's environment has GATEHOUSE_BRIEF_FILE and no GATEHOUSE_CHECK_ID", () => {
    const env = buildCheckEnv(input({ checkId: null, briefFile: "/data/logs/r/1/_brief.md" }));
    expect(env.GATEHOUSE_BRIEF_FILE).toBe("/data/logs/r/1/_brief.md");
    expect(env).not.toHaveProperty("GATEHOUSE_CHECK_ID");
  });

  it("falls back to a default PATH and C.UTF-8 when the server has none", () => {
    const env = buildCheckEnv(input({ serverEnv: {} }));
    expect(env.PATH).toMatch(/\/usr\/bin/);
    expect(env.LANG).toBe("C.UTF-8");
  });

  it("processMarkers names the run, attempt and check", () => {
    expect(processMarkers(buildCheckEnv(input()))).toEqual([
      "GATEHOUSE_RUN_ID=run-1",
      "GATEHOUSE_ATTEMPT=2",
      "GATEHOUSE_CHECK_ID=unit",
    ]);
  });
});

describe("a real process sees exactly the scrubbed environment", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-env-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("`env` prints the fixed set plus the listed names and nothing else", async () => {
    const env = buildCheckEnv(
      input({ passthrough: [...FORBIDDEN_LISTED, "FOO_TOKEN"], secrets: { FOO_TOKEN: "foo-from-secret" } }),
    );
    const out = await runCommand({
      command: "env",
      cwd: dir,
      env,
      timeoutMs: 30_000,
      logPath: path.join(dir, "env.log"),
      capBytes: 1024 * 1024,
      masker: NO_MASKING,
      pipeDir: path.join(dir, "pipes"),
    });
    expect(out.exitCode).toBe(0);
    const seen = withoutBashAdded(parseEnv(fs.readFileSync(path.join(dir, "env.log"), "utf8")));
    expect(seen).toEqual({ ...env });
    expect(Object.keys(seen).sort()).toEqual([...FIXED_NAMES, "FOO_TOKEN"].sort());
  });
});

describe("a frozen run whose checks list forbidden names (past the schema)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      serverEnv: SERVER_ENV,
      loadSecrets: async () => ({
        SECRET_ONE: "secret-one-value",
        GATEHOUSE_RUN_ID: "forged-run-id",
        DATABASE_URL: "secret-db-url",
      }),
    });
  });
  afterAll(async () => h.cleanup());

  it("the check and the agent see the fixed set and the grantable listed names only", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [check("env", "env", { envPassthrough: ["FOO_TOKEN"] })],
      agentCommand: "env",
      agentEnvPassthrough: ["BAR"],
    });
    // Write past the schema, as an older or tampered database row would.
    const listed = [
      ...FORBIDDEN_LISTED,
      "GATEHOUSE_RUN_ID",
      "HOME",
      "FOO_TOKEN",
      "SECRET_ONE",
      "AWS_NOT_LISTED_BUT_WHATEVER",
    ];
    // The check proves it got the secret's value without printing it (output may be masked).
    const command = 'env; test "$SECRET_ONE" = secret-one-value; echo "SECRET_ONE holds the secret"';
    await h.t.db.work.update({
      where: { id: s.work.id },
      data: {
        checkDefaults: [check("env", command, { envPassthrough: listed })] as Prisma.InputJsonValue,
        agentEnvPassthrough: [...FORBIDDEN_LISTED, "BAR"],
      },
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.checks[0].envPassthrough).toEqual(listed);
    expect(detail.run.ending).toBe("accepted");

    const result = detail.attempts[0].results[0];
    expect(result.verdict).toBe("passed");
    const checkEnv = withoutBashAdded(parseEnv(result.logTail ?? ""));
    // A command's process also gets its placeholder directories; this run has only {{results_dir}}.
    expect(Object.keys(checkEnv).sort()).toEqual(
      [...FIXED_NAMES, "GATEHOUSE_RESULTS_DIR", "FOO_TOKEN", "SECRET_ONE"].sort(),
    );
    expect(checkEnv).toMatchObject({
      CI: "true",
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      GATEHOUSE_RUN_ID: detail.run.id,
      GATEHOUSE_ATTEMPT: "1",
      GATEHOUSE_CHECK_ID: "env",
      // The checks' HOME is the attempt's own (the agent's is its Work's: they never share one).
      HOME: attemptHomeOf(h.dataDir, detail.run.id, 1),
      FOO_TOKEN: "foo-from-server",
    });
    // Granted secret values may be masked in stored output (SPEC: replaced by ***).
    expect(["secret-one-value", "***"]).toContain(checkEnv.SECRET_ONE);
    expect(result.message).toBe("SECRET_ONE holds the secret");

    const agentEnv = withoutBashAdded(parseEnv(detail.attempts[0].agentLogTail ?? ""));
    expect(Object.keys(agentEnv).sort()).toEqual([
      "BAR",
      "CI",
      "GATEHOUSE_ATTEMPT",
      "GATEHOUSE_BRIEF_FILE",
      "GATEHOUSE_REPORT_FILE",
      "GATEHOUSE_RUN_ID",
      "HOME",
      "LANG",
      "PATH",
      "TERM",
    ]);
    expect(agentEnv.GATEHOUSE_RUN_ID).toBe(detail.run.id);
    expect(agentEnv.HOME).toBe(agentHomeOf(h.dataDir, s.work.id));

    const everything = `${result.logTail}\n${detail.attempts[0].agentLogTail}`;
    expect(everything).not.toMatch(
      /hunter2|bootstrap-token-value|admin-password-value|next-secret|evil|secret-db-url|forged-run-id|\/srv\/gatehouse/,
    );
  });
});
