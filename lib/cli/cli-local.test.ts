// The real `gatehouse` command as a child process where no Gatehouse server is needed to see the
// behaviour: reading a gates file from a pipe whose writer is slow, and one line (never a stack) for what
// the user got wrong on the command line.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN, type CliResult, cliEnv, runCli } from "@/lib/testing/cli-process";
import { scratchDir } from "@/lib/testing/scratch";

// A server address nothing listens on: these commands must fail before they would reach it.
const env: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: scratchDir("gatehouse-cli-home-"),
  GATEHOUSE_URL: "http://127.0.0.1:9",
  GATEHOUSE_TOKEN: "gh_unused",
};

// A web server that is not Gatehouse: a sign-in page at /signin (200, HTML) and an HTML 404 elsewhere, as
// a GATEHOUSE_URL copied from the browser's address bar, or another site, would answer.
let website: http.Server;
let websiteUrl: string;
beforeAll(async () => {
  website = http.createServer((request, response) => {
    const isSignIn = request.url?.startsWith("/signin");
    response.writeHead(isSignIn ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!DOCTYPE html><html><body>${isSignIn ? "Sign in" : "Not found"}</body></html>`);
  });
  await new Promise<void>((resolve) => website.listen(0, "127.0.0.1", resolve));
  websiteUrl = `http://127.0.0.1:${(website.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => website?.close(resolve));
});

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

describe("a server that is not Gatehouse's API", () => {
  it("is one line naming the address, whether it answers 200 with a page or an HTML 404", async () => {
    const signIn = `${websiteUrl}/signin`;
    const page = await runCli(["works"], { env: cliEnv(signIn, "gh_unused") });
    expect([page.code, page.stderr]).toEqual([
      1,
      `gatehouse: ${signIn} did not answer with Gatehouse's API (is GATEHOUSE_URL the server's address?)\n`,
    ]);
    // The same address stored by `gatehouse login`: the reply names that instead of GATEHOUSE_URL.
    const stored = cliEnv("", "");
    delete stored.GATEHOUSE_URL;
    delete stored.GATEHOUSE_TOKEN;
    fs.mkdirSync(path.join(stored.XDG_CONFIG_HOME, "gatehouse"), { recursive: true });
    fs.writeFileSync(
      path.join(stored.XDG_CONFIG_HOME, "gatehouse", "config.json"),
      JSON.stringify({ url: signIn, token: "gh_unused" }),
    );
    const fromLogin = await runCli(["works"], { env: stored });
    expect([fromLogin.code, fromLogin.stderr]).toEqual([
      1,
      `gatehouse: ${signIn} did not answer with Gatehouse's API ` +
        "(`gatehouse login` stored it: is it the server's address?)\n",
    ]);
    const notFound = await runCli(["runs", "GATE-1"], { env: cliEnv(websiteUrl, "gh_unused") });
    expect([notFound.code, notFound.stderr]).toEqual([
      1,
      `gatehouse: ${websiteUrl} did not answer with Gatehouse's API ` +
        "(HTTP 404; is GATEHOUSE_URL the server's address?)\n",
    ]);
  });

  it("is one line when `gatehouse login` is given its address, with a token or a password", async () => {
    const signIn = `${websiteUrl}/signin`;
    const bare = cliEnv(signIn, "");
    delete bare.GATEHOUSE_URL;
    delete bare.GATEHOUSE_TOKEN;
    const withToken = await runCli(["login", signIn, "--token", "gh_unused"], { env: bare });
    expect([withToken.code, withToken.stderr]).toEqual([
      1,
      `gatehouse: ${signIn} did not answer with Gatehouse's API (is it the server's address?)\n`,
    ]);
    const withPassword = await runCli(["login", signIn, "--email", "dev@example.com"], { env: bare, input: "pw\n" });
    expect([withPassword.code, withPassword.stderr]).toEqual([
      1,
      `gatehouse: ${signIn} did not answer with Gatehouse's API (is it the server's address?)\n`,
    ]);
  });
});

describe("a number option that is not a whole number ≥ 1", () => {
  it("is refused in one line naming the option, before anything is asked of the server", async () => {
    for (const given of ["abc", "0", "1.5", "2abc", "-1"]) {
      const res = await runCli(["logs", "some-run", "--attempt", given, "--check", "unit"], { env });
      expect([res.code, res.stderr]).toEqual([1, `gatehouse: --attempt: must be a whole number ≥ 1, not "${given}"\n`]);
    }
  });
});

describe("gatehouse --version", () => {
  it("prints the installed Gatehouse's version", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
    const res = await runCli(["--version"], { env });
    expect(res).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });
});
