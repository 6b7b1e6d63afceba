// The stage built-ins (issue 26) against real files, a real loopback HTTP server and real commands:
// file_has, research (online too), tasks_done and verify (its cli and api layers, its evidence file), and
// none of them reading through a link out of the checkout.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecAnswer } from "./builtin-io";
import { NO_MASKING } from "../output/masker";
import { runBuiltin } from "./run-builtin";

let root: string;
let results: string;
let outside: string;
let server: http.Server;
let base: string;
let n = 0;

const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(results, rel)), { recursive: true });
  fs.writeFileSync(path.join(results, rel), text);
};

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-stage-builtins-"));
  results = path.join(root, "checkout");
  outside = path.join(root, "outside");
  fs.mkdirSync(results);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, "notes.md"), "verdict: stolen\n");
  fs.symlinkSync(path.join(outside, "notes.md"), path.join(results, "link-out.md"));
  server = http.createServer((req, res) => {
    const status = req.url === "/ok" ? 200 : req.url === "/moved" ? 301 : req.url === "/health" ? 200 : 404;
    res.writeHead(status, status === 301 ? { location: "/ok" } : {});
    res.end(req.method === "HEAD" ? undefined : "body");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

// A command run as the cli layer would be (here: bash in the checkout, without the sandbox).
async function execHere(command: string): Promise<ExecAnswer> {
  const ran = spawnSync("bash", ["-c", command], { cwd: results, encoding: "utf8" });
  return { exitCode: ran.status, output: `${ran.stdout}${ran.stderr}`, problem: null };
}

async function run(use: string, params: Record<string, unknown>, extra: { commit?: string } = {}) {
  const logPath = path.join(root, `log-${n++}.log`);
  const outcome = await runBuiltin({
    use,
    with: params,
    dirs: { results_dir: results, checks_dir: null, assets_dir: null },
    timeoutMs: 30_000,
    logPath,
    capBytes: 1024 * 1024,
    masker: NO_MASKING,
    exec: (command) => execHere(command),
    commit: extra.commit,
  });
  return { verdict: outcome.builtinVerdict, message: outcome.message, log: fs.readFileSync(logPath, "utf8") };
}

describe("file_has", () => {
  it("passes when the file exists, is not empty and has every text; fails saying what is missing", async () => {
    write("spec.md", "# Spec\n\n## Acceptance\n- slugify lowercases\n");
    expect(await run("file_has", { path: "spec.md", strings: ["## Acceptance"] })).toMatchObject({
      verdict: "passed",
      message: "spec.md: contains all 1 of the texts",
    });
    expect(await run("file_has", { path: "spec.md", strings: ["## Acceptance", "## Risks"] })).toMatchObject({
      verdict: "failed",
      message: 'spec.md: does not contain "## Risks"',
    });
    write("blank.md", "");
    expect((await run("file_has", { path: "blank.md" })).message).toBe("blank.md: exists but is empty");
    expect((await run("file_has", { path: "nope.md" })).message).toBe("nope.md: not found");
  });

  it("never reads through a link out of the checkout", async () => {
    const out = await run("file_has", { path: "link-out.md", strings: ["verdict"] });
    expect(out.verdict).toBe("error");
    expect(out.message).toContain("is a symbolic link");
  });
});

describe("research", () => {
  it("wants a verdict: line and at least two sources unless told otherwise", async () => {
    write("research.md", `# Research\n\nverdict: use a regex\n\n- source: ${base}/ok — the docs\n`);
    expect(await run("research", { path: "research.md" })).toMatchObject({
      verdict: "failed",
      message: "research.md: 1 source, at least 2 wanted (- source: <url> — <note>)",
    });
    expect((await run("research", { path: "research.md", sources: 1 })).verdict).toBe("passed");
    write("research.md", `# Research\n\n- source: ${base}/ok — a\n- source: ${base}/moved — b\n`);
    expect((await run("research", { path: "research.md" })).message).toBe("research.md: no verdict: line");
  });

  it("online: every url must answer 2xx or 3xx", async () => {
    write("research.md", `verdict: yes\n- source: ${base}/ok — a\n- source: ${base}/moved — b\n`);
    expect(await run("research", { path: "research.md", online: true })).toMatchObject({
      verdict: "passed",
      message: "research.md: a verdict and 2 sources, each answering",
    });
    write("research.md", `verdict: yes\n- source: ${base}/ok — a\n- source: ${base}/gone — b\n`);
    expect(await run("research", { path: "research.md", online: "yes" })).toMatchObject({
      verdict: "failed",
      message: `research.md: ${base}/gone answered 404, not 2xx or 3xx`,
    });
  });

  it("online: a private address is refused (an agent's url must not reach into the server's network)", async () => {
    write("research.md", "verdict: yes\n- source: http://169.254.169.254/latest — a\n- source: http://10.0.0.1/ — b\n");
    const read = await run("research", { path: "research.md", online: true });
    expect(read.verdict).toBe("failed");
    expect(read.message).toContain("169.254.169.254 resolves to 169.254.169.254, a private address");
  });
});

describe("tasks_done", () => {
  it("passes when no box is left unchecked, and names the first one left", async () => {
    write("tasks.md", "- [x] write the spec\n- [X] write the code\n");
    expect(await run("tasks_done", { path: "tasks.md" })).toMatchObject({
      verdict: "passed",
      message: "tasks.md: no unchecked box left (2 checked)",
    });
    write("tasks.md", "- [x] write the spec\n- [ ] write the code\n  * [ ] test it\n");
    expect(await run("tasks_done", { path: "tasks.md" })).toMatchObject({
      verdict: "failed",
      message: "tasks.md: 2 unchecked boxes left, first at line 2",
    });
  });
});

describe("verify", () => {
  const caseFile = (id: string, cli: string, api: string) =>
    `id: ${id}\naccept: ${id} works\nfailure_mode: it does not\nlayers:\n${cli}${api}`;

  it("runs every use case's cli and api layers and writes the evidence with the commit, one row each", async () => {
    write("slug.sh", 'echo "$1" | tr "A-Z " "a-z-"\n');
    write(
      "usecases/slugify/basic.yaml",
      caseFile(
        "basic",
        "  cli: { run: 'bash slug.sh \"Hello World\"', expect: { exit: 0, stdout: hello-world } }\n",
        "  api: { method: GET, path: /health, expect: { status: 200 } }\n",
      ),
    );
    write("usecases/slugify/exit.yaml", caseFile("exit-code", "  cli: { run: 'exit 3', expect: { exit: 3 } }\n", ""));
    const sha = "0123456789abcdef0123456789abcdef01234567";
    const passed = await run("verify", { id: "slugify", base_url: base }, { commit: sha });
    expect(passed).toMatchObject({ verdict: "passed", message: "2 use cases pass (evidence/slugify/verify.md)" });
    const evidence = fs.readFileSync(path.join(results, "evidence/slugify/verify.md"), "utf8");
    expect(evidence).toContain("result: pass\n");
    expect(evidence).toContain(`commit: ${sha}\n`);
    expect(evidence.split("\n").filter((l) => /^\| (basic|exit-code) /.test(l))).toEqual([
      "| basic | basic works | ✓ exit 0 | ✓ GET /health 200 | pass |",
      "| exit-code | exit-code works | ✓ exit 3 | — | pass |",
    ]);
  });

  it("fails on a wrong output or status, still writing a row for each use case", async () => {
    write(
      "usecases/broken/a.yaml",
      caseFile("a", "  cli: { run: 'echo nope', expect: { stdout: yes } }\n", "  api: { path: /missing }\n"),
    );
    write("usecases/broken/b.yaml", caseFile("b", "", "  api: { path: /missing, expect: { status: 404 } }\n"));
    const failed = await run("verify", { id: "broken", base_url: base });
    expect(failed).toMatchObject({
      verdict: "failed",
      message: '1 of 2 use cases fail, first a: ✗ output lacks "yes" (evidence/broken/verify.md)',
    });
    const evidence = fs.readFileSync(path.join(results, "evidence/broken/verify.md"), "utf8");
    expect(evidence).toContain("result: fail\n");
    expect(evidence).toContain('| a | a works | ✗ output lacks "yes" | ✗ GET /missing 404, expected 200 | fail |');
    expect(evidence).toContain("| b | b works | — | ✓ GET /missing 404 | pass |");
  });

  it("fails without use cases, and refuses a use-case folder that is a link out", async () => {
    expect((await run("verify", { id: "none" })).message).toBe("usecases/none/: not found");
    fs.mkdirSync(path.join(outside, "cases"));
    fs.writeFileSync(path.join(outside, "cases", "x.yaml"), caseFile("x", "  cli: { run: 'true' }\n", ""));
    fs.symlinkSync(path.join(outside, "cases"), path.join(results, "usecases", "linked"));
    const linked = await run("verify", { id: "linked" });
    expect(linked.verdict).toBe("error");
    expect(linked.message).toContain("is a symbolic link");
  });

  it("is refused when saved with a base URL off this machine or an id that is not a folder name", async () => {
    const { BUILTIN_PARAMS } = await import("../../gates/builtins");
    const bad = BUILTIN_PARAMS.verify.safeParse({ id: "../x", base_url: "http://example.com" });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.path.join("."))).toEqual(["id", "base_url"]);
  });
});
