// A Gatehouse server of a test's own (its own port and data dir), for tests that must kill and restart it.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeGitRepo as makeTestRepo } from "../../lib/testing/git-repo";

export const BOOTSTRAP_TOKEN = "gh_e2e_bootstrap_token_for_tests_only_0123456789";

export type OwnServer = {
  url: string;
  dataDir: string;
  process: ChildProcess;
  stop: () => void;
  // Everything the server printed so far (stdout and stderr).
  output: () => string;
};

// What this worker made in the temp folder (servers' data dirs, repositories), removed when it exits: a
// server restarted on the same data dir outlives the first server's stop().
const made: string[] = [];
process.once("exit", () => {
  for (const dir of made) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      /* still written to by a server that has not stopped: left */
    }
  }
});

export async function startOwnServer(opts: {
  port: number;
  dataDir?: string;
  env?: Record<string, string>;
}): Promise<OwnServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-own-"));
  if (!opts.dataDir) made.push(dataDir);
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: path.resolve(__dirname, "..", ".."),
    env: {
      ...process.env,
      PORT: String(opts.port),
      GATEHOUSE_DATA_DIR: dataDir,
      GATEHOUSE_DEMO: "0",
      GATEHOUSE_BOOTSTRAP_TOKEN: BOOTSTRAP_TOKEN,
      NEXT_TELEMETRY_DISABLED: "1",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // ChildProcess.kill signals only a child Node has not reaped yet: never a pid since reused.
  return { url, dataDir, process: child, stop: () => child.kill("SIGTERM"), output: () => output };
}

export function processesWithEnv(entry: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/environ`, "latin1").split("\0").includes(entry)) pids.push(Number(name));
    } catch {
      /* gone or not ours */
    }
  }
  return pids;
}

// The same processes as "pid state command line", so a failure says what was left behind.
export function describeProcessesWithEnv(entry: string): string[] {
  return processesWithEnv(entry).map((pid) => {
    try {
      const state = /^State:\s*(\S+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? "?";
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ").trim();
      return `${pid} ${state} ${command}`;
    } catch {
      return `${pid} (gone)`;
    }
  });
}

// A throwaway repository (one commit on main) for a Work's repoUrl.
// Readable by every user, as a Work's repository must be: started as root, the server's git for the Work's
// repository runs as the sandbox's unprivileged user (a folder from mkdtemp is its creator's alone).
export function makeGitRepo(): string {
  const dir = makeTestRepo({ "README.md": "e2e\n" }).dir;
  made.push(dir);
  fs.chmodSync(dir, 0o755);
  return dir;
}
