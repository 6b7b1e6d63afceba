// Test helper: the real `gatehouse` command (scripts/gatehouse.mjs) as a child process, started without
// blocking the test's event loop (the API it talks to runs in the test's own process).
import { spawn } from "node:child_process";
import path from "node:path";
import { scratchDir } from "./scratch";

export const CLI_BIN = path.resolve(__dirname, "..", "..", "scripts", "gatehouse.mjs");

export type CliResult = { code: number | null; stdout: string; stderr: string };

// A HOME of its own, so no stored login of the machine's user is read.
export function cliEnv(url: string, token: string, extra: Record<string, string> = {}): Record<string, string> {
  const home = scratchDir("gatehouse-cli-home-");
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    GATEHOUSE_URL: url,
    GATEHOUSE_TOKEN: token,
    ...extra,
  };
}

type RunOptions = { env: Record<string, string>; cwd?: string; input?: string; onStdout?: (text: string) => void };

export function runCli(args: string[], opts: RunOptions): Promise<CliResult> {
  return runNodeScript(CLI_BIN, args, opts);
}

// A node program as a child process (the gatehouse command, the Claude Code CLI): its exit code and output.
export function runNodeScript(script: string, args: string[], opts: RunOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: opts.env as NodeJS.ProcessEnv,
      cwd: opts.cwd,
      stdio: "pipe",
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      opts.onStdout?.(stdout);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? "");
  });
}
