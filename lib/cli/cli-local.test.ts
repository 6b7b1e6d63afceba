// The real `gatehouse` command as a child process where no Gatehouse server is needed to see the
// behaviour: reading a gates file from a pipe whose writer is slow, and one line (never a stack) for what
// the user got wrong on the command line.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_BIN, type CliResult } from "@/lib/testing/cli-process";
import { scratchDir } from "@/lib/testing/scratch";

// A server address nothing listens on: these commands must fail before they would reach it.
const env: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: scratchDir("gatehouse-cli-home-"),
  GATEHOUSE_URL: "http://127.0.0.1:9",
  GATEHOUSE_TOKEN: "gh_unused",
};

// The CLI with its stdin on a real pipe (a FIFO), written the way `(sleep 1; cat gates.yml) | gatehouse
// gates lint -` writes it: the first part is larger than a pipe holds, so it is written only once the CLI is
// reading, and the rest follows after that — the CLI has found the pipe empty before its writer ended.
async function runWithSlowWriter(args: string[], first: string, rest: string): Promise<CliResult> {
  const fifo = path.join(scratchDir("gatehouse-fifo-"), "stdin");
  const withFifo: Record<string, string> = { ...env, GATEHOUSE_TEST_FIFO: fifo };
  execFileSync("mkfifo", [fifo]);
  const child = spawn("bash", ["-c", 'exec "$0" "$@" < "$GATEHOUSE_TEST_FIFO"', process.execPath, CLI_BIN, ...args], {
    env: withFifo as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  const writer = await fs.promises.open(fifo, "w");
  try {
    await writer.write(first);
    await writer.write(rest);
  } catch {
    // The CLI stopped reading (the failure this guards against): its own output says why.
  } finally {
    await writer.close();
  }
  return { code: await closed, stdout, stderr };
}

describe("gatehouse gates lint -", () => {
  it("reads the whole file from a pipe whose writer is slow", async () => {
    // More than a pipe's 64 KiB, so the writer waits for the CLI to read before it sends the checks.
    const padding = "# a long comment\n".repeat(12_000);
    const res = await runWithSlowWriter(
      ["gates", "lint", "-"],
      `${padding}gates:\n  - run: npm test\n`,
      "    id: unit\n  - npm run lint\n",
    );
    expect(res.stderr).toBe("");
    expect([res.code, res.stdout]).toEqual([0, "-: 2 checks, no problem\n"]);
  });
});
