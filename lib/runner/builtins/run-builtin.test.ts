// Each built-in against real files, a real loopback server and a real symlink: passing, failing and
// erroring, with the message a row shows, exit code null and the log written through the log writer.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callUnprivileged } from "../../testing/unprivileged-call";
import { describeAsRoot } from "../../testing/needs-root";
import { NO_MASKING } from "../output/masker";
import { runBuiltin } from "./run-builtin";

let root: string;
let results: string;
let outside: string;
let n = 0;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-builtins-"));
  results = path.join(root, "checkout");
  outside = path.join(root, "outside");
  fs.mkdirSync(path.join(results, "src", "deep"), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(results, "good.json"), '{"ok": true, "items": [1, 2]}\n');
  fs.writeFileSync(path.join(results, "output.json"), '{\n  "a": 1,\n    "b": 2,\n}\n');
  fs.writeFileSync(path.join(results, "empty.txt"), "");
  fs.writeFileSync(path.join(results, "report.md"), "# Report\n\n## Summary\n\nAll seven words are here now.\n");
  fs.writeFileSync(path.join(results, "src", "a.ts"), "export const a = 1;\n");
  fs.writeFileSync(path.join(results, "src", "deep", "b.ts"), "const b = 2;\nconsole.log(b);\n");
  fs.writeFileSync(path.join(outside, "secret.json"), '{"secret": 1}');
  fs.symlinkSync(path.join(outside, "secret.json"), path.join(results, "link-out.json"));
  fs.symlinkSync("good.json", path.join(results, "link-in.json"));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function run(
  use: string,
  params: Record<string, unknown>,
  extra: { timeoutMs?: number; signal?: AbortSignal; resultsDir?: string } = {},
) {
  const logPath = path.join(root, `log-${n++}.log`);
  const outcome = await runBuiltin({
    use,
    with: params,
    dirs: { results_dir: extra.resultsDir ?? results, checks_dir: null, assets_dir: null },
    timeoutMs: extra.timeoutMs ?? 30_000,
    logPath,
    capBytes: 1024 * 1024,
    masker: NO_MASKING,
    signal: extra.signal,
  });
  return { ...outcome, log: fs.readFileSync(logPath, "utf8") };
}

describe("file built-ins", () => {
  it("json_valid passes on valid JSON and fails on a trailing comma with its line and column", async () => {
    const good = await run("json_valid", { path: "good.json" });
    expect([good.builtinVerdict, good.exitCode, good.message]).toEqual([
      "passed",
      null,
      "good.json: valid JSON (30 B)",
    ]);
    expect(good.durationMs).toBeGreaterThanOrEqual(0);
    const bad = await run("json_valid", { path: "output.json" });
    expect([bad.builtinVerdict, bad.message]).toEqual([
      "failed",
      "output.json: Unexpected token } at line 4, column 1",
    ]);
    expect(bad.log).toContain("    4 | }");
    expect(bad.log).toContain('[gatehouse] built-in json_valid path="output.json"');
  });

  it("a missing file fails; an empty one fails file_exists; a directory is not a file", async () => {
    expect((await run("json_valid", { path: "nope.json" })).message).toBe("nope.json: not found");
    const empty = await run("file_exists", { path: "empty.txt" });
    expect([empty.builtinVerdict, empty.message]).toEqual(["failed", "empty.txt: exists but is empty"]);
    expect((await run("file_exists", { path: "report.md" })).builtinVerdict).toBe("passed");
    expect((await run("file_exists", { path: "src" })).message).toBe("src: is a directory, not a file");
  });

  it("file_contains names the texts it did not find", async () => {
    const ok = await run("file_contains", { path: "report.md", strings: ["## Summary", "seven"] });
    expect([ok.builtinVerdict, ok.message]).toEqual(["passed", "report.md: contains all 2 of the texts"]);
    const missing = await run("file_contains", { path: "report.md", strings: ["## Summary", "Total", "Risks"] });
    expect([missing.builtinVerdict, missing.message]).toEqual([
      "failed",
      'report.md: does not contain "Total", "Risks"',
    ]);
  });

  it("min_words counts words", async () => {
    expect((await run("min_words", { path: "report.md", count: 9 })).message).toBe("report.md: 10 words (at least 9)");
    const few = await run("min_words", { path: "report.md", count: 300 });
    expect([few.builtinVerdict, few.message]).toEqual(["failed", "report.md: 10 words, fewer than 300"]);
  });
});

describe("paths that leave the results directory are errors", () => {
  it.each([["../../etc/passwd"], ["/etc/passwd"], ["src/../../outside/secret.json"]])("%s", async (p) => {
    // Refused when saved too; frozen checks that came in another way are checked again here.
    const outcome = await run("json_valid", { path: p });
    expect(outcome.builtinVerdict).toBe("error");
    expect(outcome.message).toMatch(/^with\.path: must (stay inside|be relative to) the results directory/);
  });

  it("a symlink pointing out is an error (realpath at run time); one pointing inside is followed", async () => {
    const out = await run("json_valid", { path: "link-out.json" });
    expect(out.builtinVerdict).toBe("error");
    expect(out.message).toBe(
      `link-out.json: resolves to ${fs.realpathSync(path.join(outside, "secret.json"))}, outside ` +
        `the results directory (a symlink out)`,
    );
    expect(out.log).not.toContain('"secret"');
    expect((await run("json_valid", { path: "link-in.json" })).builtinVerdict).toBe("passed");
  });

  // The folder above a checkout is the run-as user's: a link it puts in place of the checkout's own folder (or a
  // folder above a results directory) leads nowhere; the file where it leads is neither read nor shown.
  it.runIf(process.getuid?.() === 0)(
    "a results directory whose folder the run-as user made a link is refused",
    async () => {
      const users = path.join(root, "users");
      const elsewhere = path.join(root, "elsewhere");
      fs.mkdirSync(users);
      fs.mkdirSync(elsewhere, { mode: 0o700 });
      fs.writeFileSync(path.join(elsewhere, "report.json"), "db_password=hunter2\n", { mode: 0o600 });
      fs.chownSync(users, 65534, 65534);
      fs.symlinkSync(elsewhere, path.join(users, "checkout"));
      fs.lchownSync(path.join(users, "checkout"), 65534, 65534);
      const outcome = await run("json_valid", { path: "report.json" }, { resultsDir: path.join(users, "checkout") });
      expect(outcome.builtinVerdict).toBe("error");
      expect(outcome.message).toContain("is a symbolic link");
      expect(`${outcome.message}${outcome.log}`).not.toContain("hunter2");
      const searched = await run(
        "no_match",
        { glob: "**", pattern: "password" },
        { resultsDir: path.join(users, "checkout") },
      );
      expect(searched.builtinVerdict).toBe("error");
      expect(`${searched.message}${searched.log}`).not.toContain("hunter2");
    },
  );

  it("a path like $(touch …) is only a file name: nothing runs", async () => {
    const marker = path.join(root, "pwned");
    const outcome = await run("file_exists", { path: `$(touch ${marker})` });
    expect([outcome.builtinVerdict, outcome.message]).toEqual(["failed", `$(touch ${marker}): not found`]);
    const relative = await run("file_exists", { path: "`touch pwned`;$(touch pwned)" });
    expect(relative.message).toBe("`touch pwned`;$(touch pwned): not found");
    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.existsSync(path.join(results, "pwned"))).toBe(false);
    expect(fs.existsSync(path.join(process.cwd(), "pwned"))).toBe(false);
  });
});

describe("no_match", () => {
  it("passes when no line matches, fails naming the first match", async () => {
    const clean = await run("no_match", { glob: "src/**/*.ts", pattern: "debugger" });
    expect([clean.builtinVerdict, clean.message]).toEqual(["passed", "no line matches /debugger/ in 2 files"]);
    const dirty = await run("no_match", { glob: "src/**/*.ts", pattern: "console\\.log\\(" });
    expect([dirty.builtinVerdict, dirty.message]).toEqual([
      "failed",
      "1 line match /console\\.log\\(/, first src/deep/b.ts:2",
    ]);
    expect(dirty.log).toContain("src/deep/b.ts:2: console.log(b);");
  });

  // picomatch passes a `|` on into the expression: the glob matches under both folders, and both are searched.
  it("a glob with a | searches every folder either side can match under", async () => {
    const outcome = await run("no_match", { glob: "nothing/*.ts|src/deep/*.ts", pattern: "console\\.log\\(" });
    expect([outcome.builtinVerdict, outcome.message]).toEqual([
      "failed",
      "1 line match /console\\.log\\(/, first src/deep/b.ts:2",
    ]);
  });

  it("a link out of the results directory where a match could be is an error, and nothing there is read", async () => {
    const outcome = await run("no_match", { glob: "**/*.json", pattern: "secret" });
    expect([outcome.builtinVerdict, outcome.message]).toEqual([
      "error",
      "no_match: link-out.json is an absolute link (only relative links inside the results folder are followed)",
    ]);
    expect(outcome.log).not.toContain('{"secret": 1}');
  });

  // The check's commands read through a link: what it leads to inside the results directory is searched, under
  // the link's name, even where the glob does not reach the target itself.
  it("a link inside the results directory is followed one level, to a file or a folder", async () => {
    const linked = path.join(root, "linked");
    fs.mkdirSync(path.join(linked, "vendor", "more"), { recursive: true });
    fs.mkdirSync(path.join(linked, "src"));
    fs.writeFileSync(path.join(linked, "vendor", "skip.js"), "it.skip('hidden', () => {});\n");
    fs.writeFileSync(path.join(linked, "vendor", "more", "deep.js"), "describe.skip('deeper');\n");
    const search = (glob: string) => run("no_match", { glob, pattern: "\\.skip\\(" }, { resultsDir: linked });
    fs.symlinkSync("../vendor/skip.js", path.join(linked, "src", "a.test.js"));
    expect((await search("src/**/*.js")).message).toBe("1 line match /\\.skip\\(/, first src/a.test.js:1");
    fs.rmSync(path.join(linked, "src", "a.test.js"));
    fs.symlinkSync("../vendor", path.join(linked, "src", "sub"));
    const folder = await search("src/**/*.js");
    expect([folder.builtinVerdict, folder.message]).toEqual([
      "failed",
      "2 lines match /\\.skip\\(/, first src/sub/skip.js:1",
    ]);
    expect(folder.log).toContain("src/sub/more/deep.js:1: describe.skip('deeper');");
    // One level only: a link to a link, or a link a linked folder holds, is not followed.
    fs.symlinkSync("more", path.join(linked, "vendor", "again"));
    expect((await search("src/**/*.js")).message).toBe(
      "no_match: src/sub/again is a link inside a linked folder (links are followed one level)",
    );
    fs.rmSync(path.join(linked, "vendor", "again"));
    fs.rmSync(path.join(linked, "src", "sub"));
    fs.symlinkSync("sub2", path.join(linked, "src", "sub"));
    fs.symlinkSync("../vendor", path.join(linked, "src", "sub2"));
    expect((await search("src/sub/*.js")).message).toBe(
      "no_match: src/sub links to another link (links are followed one level)",
    );
    fs.rmSync(path.join(linked, "src", "sub"));
    fs.symlinkSync("../../outside", path.join(linked, "src", "sub"));
    expect((await search("src/**/*.js")).message).toBe(
      "no_match: src/sub is a symbolic link out of the results folder (links out are not followed)",
    );
  });

  it("a virtual environment's links to files are no false alarm; a name that is not UTF-8 is an error", async () => {
    const project = path.join(root, "project");
    fs.mkdirSync(path.join(project, ".venv", "bin"), { recursive: true });
    fs.writeFileSync(path.join(project, "app.py"), "print('ok')\n");
    fs.symlinkSync("/usr/bin/python3", path.join(project, ".venv", "bin", "python"));
    fs.symlinkSync("python", path.join(project, ".venv", "bin", "python3"));
    const search = () => run("no_match", { glob: "**/*.py", pattern: "breakpoint\\(" }, { resultsDir: project });
    expect((await search()).message).toBe("no line matches /breakpoint\\(/ in 1 file");
    // The kernel reads a name byte for byte; decoded as UTF-8 here, \xff would become another name.
    const odd = Buffer.concat([Buffer.from(path.join(project, "scratch-")), Buffer.from([0xff]), Buffer.from(".py")]);
    fs.writeFileSync(odd, "breakpoint()\n");
    const outcome = await search();
    expect([outcome.builtinVerdict, outcome.message]).toEqual([
      "error",
      "no_match: a name in . is not UTF-8 (it cannot be searched)",
    ]);
  });

  it("a regex that backtracks for ever is stopped at the check's timeout (the server stays responsive)", async () => {
    fs.writeFileSync(path.join(results, "src", "slow.txt"), `${"a".repeat(80)}!\n`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    // The search is handed a descriptor of the results directory: closed once it ends, a terminated one too.
    const openInResults = () =>
      fs.readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(fs.realpathSync(results));
        } catch {
          return false;
        }
      });
    const outcome = await run("no_match", { glob: "src/slow.txt", pattern: "^(a|aa)+$" }, { timeoutMs: 1000 });
    clearInterval(timer);
    expect([outcome.builtinVerdict, outcome.isTimedOut]).toEqual([null, true]);
    expect(ticks).toBeGreaterThan(5);
    await vi.waitFor(() => expect(openInResults()).toEqual([]), { timeout: 5000 });
    fs.rmSync(path.join(results, "src", "slow.txt"));
  });

  it("a cancel stops it too", async () => {
    fs.writeFileSync(path.join(results, "src", "slow2.txt"), `${"a".repeat(80)}!\n`);
    const controller = new AbortController();
    const pending = run("no_match", { glob: "src/slow2.txt", pattern: "^(a|aa)+$" }, { signal: controller.signal });
    setImmediate(() => controller.abort());
    const outcome = await pending;
    expect([outcome.builtinVerdict, outcome.isAborted]).toEqual([null, true]);
    fs.rmSync(path.join(results, "src", "slow2.txt"));
  });
});

// A server that is not root runs the checks as itself, so what the agent leaves it may make unreadable to
// that same user (mode 000 on a folder it owns). The search runs here in a process file modes bind.
describeAsRoot("no_match on a server that is not root", () => {
  const searchUnprivileged = (resultsDir: string, glob = "**/*.txt") =>
    callUnprivileged(
      path.join(__dirname, "no-match.ts"),
      `m.noMatch({ glob: ${JSON.stringify(glob)}, pattern: "planted" }, ` +
        "{ log: () => {}, signal: new AbortController().signal, " +
        `dirs: { results_dir: ${JSON.stringify(resultsDir)}, checks_dir: null, assets_dir: null } })`,
    ) as { verdict: string; message: string };

  it("a folder or file it cannot open is an error, never a pass", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-no-match-"));
    try {
      const checkout = path.join(dir, "checkout");
      fs.mkdirSync(path.join(checkout, "hidden"), { recursive: true });
      fs.writeFileSync(path.join(checkout, "clean.txt"), "nothing here\n");
      fs.writeFileSync(path.join(checkout, "hidden", "note.txt"), "a planted line\n");
      fs.chmodSync(path.join(checkout, "hidden"), 0o000);
      expect(searchUnprivileged(checkout)).toEqual({
        verdict: "error",
        message: "no_match: the folder hidden cannot be read (EACCES): what cannot be searched is not taken as clean",
      });
      // A folder no match of the glob can be under is not entered, unreadable or not.
      expect(searchUnprivileged(checkout, "docs/**/*.txt")).toEqual({
        verdict: "passed",
        message: "no file matches docs/**/*.txt: nothing to search",
      });
      fs.chmodSync(path.join(checkout, "hidden"), 0o755);
      fs.chmodSync(path.join(checkout, "hidden", "note.txt"), 0o000);
      expect(searchUnprivileged(checkout).message).toBe(
        "no_match: the file hidden/note.txt cannot be read (EACCES): what cannot be searched is not taken as clean",
      );
      // Readable again, the planted line is found.
      fs.chmodSync(path.join(checkout, "hidden", "note.txt"), 0o644);
      expect(searchUnprivileged(checkout)).toEqual({
        verdict: "failed",
        message: "1 line match /planted/, first hidden/note.txt:1",
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("http_ok", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/health") res.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
      else if (req.url === "/created") res.writeHead(201).end();
      else res.writeHead(503).end("down\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("passes on 2xx, or on the status asked for; fails on another", async () => {
    const ok = await run("http_ok", { url: `http://127.0.0.1:${port}/health` });
    expect([ok.builtinVerdict, ok.exitCode, ok.message]).toEqual([
      "passed",
      null,
      `GET http://127.0.0.1:${port}/health → 200 OK`,
    ]);
    expect(ok.log).toContain("ok");
    expect((await run("http_ok", { url: `http://localhost:${port}/created`, status: 201 })).builtinVerdict).toBe(
      "passed",
    );
    const down = await run("http_ok", { url: `http://127.0.0.1:${port}/other` });
    expect([down.builtinVerdict, down.message]).toEqual([
      "failed",
      `GET http://127.0.0.1:${port}/other → 503 Service Unavailable, expected 2xx`,
    ]);
  });

  it("nothing listening fails; a host that is not loopback is refused at run time too", async () => {
    const closed = await run("http_ok", { url: "http://127.0.0.1:1/" });
    expect([closed.builtinVerdict, closed.message]).toEqual([
      "failed",
      "GET http://127.0.0.1:1/: connection refused: nothing listens there",
    ]);
    const far = await run("http_ok", { url: "http://192.0.2.1/" });
    expect(far.builtinVerdict).toBe("error");
    expect(far.message).toContain("with.url: must be on this machine");
  });
});
