// The one way Gatehouse starts and ends processes (native spawner, per-command shim, polled pipe), with
// real processes: runCommand's exit codes and messages, one interleaved log on a real pipe, timeouts
// that end the whole process group, spawn errors, capped logs that keep head and tail in bounded memory,
// bytes stored exactly, expectStdout across chunks; the pipe poller; no process outliving its check
// however it detaches (also as another user); no inherited descriptor reaching a check; and the guards
// every signal goes through.
// Floods use `head -c N < <(yes ...)`: under `-o pipefail`, `yes | head -c N` fails with 141 (SIGPIPE).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NO_MASKING } from "../output/masker";
import { TAIL_BYTES } from "../output/log-sink";
import { StreamSearch } from "../output/stream-search";
import {
  isProcessAlive,
  killQuietly,
  liveProcessesInGroup,
  processesCarrying,
  waitFor,
  waitUntilGone,
} from "../../testing/processes";
import { closeFifoPoolsUnder, fifoPoolFor } from "./fifo-pool";
import { PipePoller } from "./pipe-poller";
import { identify, killMarked, ownProcessGroup, signalGroup } from "./process-group";
import { runCommand, type CommandSpec } from "./run-command";
import { launch } from "./spawner";
import { execCaptured } from "./exec-captured";

let dir: string;
let counter = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-runcmd-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

// Every process these tests start carries MARK, so a clean-up signals only processes this file started.
const MARK = `GATEHOUSE_TEST_MARK=process-${process.pid}-${Date.now()}`;
const ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: os.tmpdir(),
  LANG: "C.UTF-8",
  [MARK.split("=")[0]]: MARK.split("=")[1],
};

function spec(command: string, extra: Partial<CommandSpec> = {}): CommandSpec {
  const n = ++counter;
  return {
    command,
    cwd: dir,
    env: ENV,
    timeoutMs: 30_000,
    logPath: path.join(dir, `cmd-${n}.log`),
    capBytes: 32 * 1024 * 1024,
    masker: NO_MASKING,
    pipeDir: path.join(dir, "pipes"),
    killGraceMs: 300,
    ...extra,
  };
}

// Pids a command printed as "name=pid" lines.
function pidsIn(log: string): Record<string, number> {
  return Object.fromEntries([...log.matchAll(/^(\w+)=(\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
}

describe("runCommand: exit status and output", () => {
  it("reports the exit code, and the last non-empty line as the message", async () => {
    const out = await runCommand(spec('echo "first line"; echo "the last line"; echo; echo "   "; exit 3'));
    expect(out.spawnError).toBeNull();
    expect(out.exitCode).toBe(3);
    expect(out.isTimedOut).toBe(false);
    expect(out.message).toBe("the last line");
    expect(out.tail).toContain("first line\nthe last line\n");
  });

  it("runs with bash -e -o pipefail: a failing command in a pipeline fails the whole command", async () => {
    const out = await runCommand(spec("false | cat; echo not-reached"));
    expect(out.exitCode).toBe(1);
    expect(out.tail).not.toContain("not-reached");
  });

  it("interleaves stdout and stderr in arrival order into one log", async () => {
    const s = spec("echo out-1; echo err-1 >&2; echo out-2; echo err-2 >&2; echo out-3");
    const out = await runCommand(s);
    expect(out.exitCode).toBe(0);
    expect(fs.readFileSync(s.logPath, "utf8")).toBe("out-1\nerr-1\nout-2\nerr-2\nout-3\n");
    expect(out.totalBytes).toBe(30);
    expect(out.note).toBeNull();
  });

  it("gives the command a real pipe: `> /dev/stdout` and `> /dev/stderr` work", async () => {
    const s = spec("echo x > /dev/stdout; echo y > /dev/stderr; echo z | tee /dev/stderr >/dev/null");
    const out = await runCommand(s);
    expect(out.exitCode).toBe(0);
    expect(fs.readFileSync(s.logPath, "utf8")).toBe("x\ny\nz\n");
  });

  it("feeds stdinFile to the command's stdin, and /dev/null otherwise", async () => {
    const input = path.join(dir, "stdin.txt");
    fs.writeFileSync(input, "hello from stdin\n");
    const withInput = await runCommand(spec("cat", { stdinFile: input }));
    expect(withInput.tail).toBe("hello from stdin\n");
    const without = await runCommand(spec("cat; echo done"));
    expect(without.tail).toBe("done\n");
  });

  it("a missing working directory is a spawn error, not a crash", async () => {
    const missing = path.join(dir, "no-such-dir");
    const s = spec("echo never", { cwd: missing });
    const out = await runCommand(s);
    expect(out.spawnError).toMatch(/does not exist/);
    expect(out.spawnError).toContain(missing);
    expect(out.exitCode).toBeNull();
    expect(out.message).toBe(out.spawnError);
    expect(fs.readFileSync(s.logPath, "utf8")).toContain("does not exist");
  });
});

describe("runCommand: timeouts and process groups", () => {
  it("a command past its timeout is ended by SIGTERM and reported as timed out", async () => {
    const out = await runCommand(spec("echo started; sleep 60", { timeoutMs: 500 }));
    expect(out.isTimedOut).toBe(true);
    expect(out.exitCode).toBeNull();
    expect(out.signal).toBe("SIGTERM");
    expect(out.message).toBe("started");
  });

  it("a command that ignores SIGTERM is SIGKILLed after the grace, and its whole group is gone", async () => {
    // The background sleep ignores TERM too (ignored signals are inherited).
    const s = spec("trap '' TERM; sleep 60 & echo child=$!; echo shell=$$; sleep 60", {
      timeoutMs: 500,
      killGraceMs: 300,
    });
    const out = await runCommand(s);
    const pids = pidsIn(fs.readFileSync(s.logPath, "utf8"));
    try {
      expect(out.isTimedOut).toBe(true);
      expect(out.signal).toBe("SIGKILL");
      expect(pids.child).toBeGreaterThan(0);
      expect(pids.shell).toBeGreaterThan(0);
      expect(await waitUntilGone([pids.child, pids.shell])).toEqual([]);
      // No live process is left in the check's process group (the group id is the shell's pid).
      expect(await waitFor(() => liveProcessesInGroup(pids.shell).length === 0, { what: "the group to end" })).toBe(
        true,
      );
    } finally {
      killQuietly([pids.child, pids.shell].filter(Boolean), [MARK]);
    }
  });

  it("a background child holding stdout open does not hang the command, and is dead afterwards", async () => {
    const s = spec("sleep 60 & echo child=$!; echo main done", { closeGraceMs: 1000 });
    const out = await runCommand(s);
    const { child } = pidsIn(fs.readFileSync(s.logPath, "utf8"));
    try {
      expect(out.exitCode).toBe(0);
      expect(out.isTimedOut).toBe(false);
      expect(out.message).toBe("main done");
      // Far below the child's 60 s: the group was ended when the main process exited.
      expect(out.durationMs).toBeLessThan(30_000);
      expect(await waitUntilGone([child])).toEqual([]);
    } finally {
      killQuietly([child], [MARK]);
    }
  });

  it("a process that left the group (setsid) and holds the output is cut off and killed by its env \
markers", async () => {
    const env = {
      ...ENV,
      GATEHOUSE_RUN_ID: `escape-${process.pid}-${Date.now()}`,
      GATEHOUSE_ATTEMPT: "1",
      GATEHOUSE_CHECK_ID: "escape",
    };
    const flag = path.join(dir, `escaped-${counter}`);
    // The main process waits until the child has left the group (the flag is written after setsid).
    const s = spec(
      `setsid sh -c 'echo "escaped=$$"; touch ${flag}; exec sleep 60' & while [ ! -e ${flag} ]; do ` +
        `sleep 0.05; done; echo main done`,
      {
        env,
        closeGraceMs: 500,
        markers: [`GATEHOUSE_RUN_ID=${env.GATEHOUSE_RUN_ID}`, "GATEHOUSE_ATTEMPT=1", "GATEHOUSE_CHECK_ID=escape"],
      },
    );
    const out = await runCommand(s);
    expect(out.exitCode).toBe(0);
    expect(out.durationMs).toBeLessThan(30_000);
    const { escaped } = pidsIn(fs.readFileSync(s.logPath, "utf8"));
    expect(escaped).toBeGreaterThan(0);
    expect(await waitUntilGone([escaped])).toEqual([]);
    // Nothing carrying the markers is left.
    const leftovers = fs
      .readdirSync("/proc")
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return fs
            .readFileSync(`/proc/${p}/environ`, "latin1")
            .split("\0")
            .includes(`GATEHOUSE_RUN_ID=${env.GATEHOUSE_RUN_ID}`);
        } catch {
          return false;
        }
      })
      .map(Number);
    expect(await waitUntilGone(leftovers)).toEqual([]);
  });

  it("an abort signal ends the whole group and reports isAborted", async () => {
    const controller = new AbortController();
    const s = spec("sleep 60 & echo child=$!; echo ready; sleep 60", { signal: controller.signal });
    // Abort once the command says it is ready (its live tail), so the background child surely exists.
    const running = runCommand({
      ...s,
      onSpawn: ({ sink }) => void waitFor(() => sink.liveTail().includes("ready")).then(() => controller.abort()),
    });
    const out = await running;
    const { child } = pidsIn(fs.readFileSync(s.logPath, "utf8"));
    expect(out.isAborted).toBe(true);
    expect(out.isTimedOut).toBe(false);
    expect(out.signal).toBe("SIGTERM");
    expect(child).toBeGreaterThan(0);
    expect(await waitUntilGone([child])).toEqual([]);
  });
});

describe("runCommand: an abort while the command is being started", () => {
  it("is not lost: the command is ended as soon as it has started", async () => {
    const controller = new AbortController();
    const running = runCommand(spec("sleep 60", { signal: controller.signal }));
    // runCommand is now waiting for its pipe and the spawner; the abort event fires before it listens.
    controller.abort();
    const out = await running;
    expect(out.isAborted).toBe(true);
    expect(out.durationMs).toBeLessThan(30_000);
  });
});

describe("runCommand: the stored log", () => {
  it("a flood over the cap keeps the head and the tail, with a marker saying what was dropped of \
how much", async () => {
    const cap = 64 * 1024;
    const s = spec("echo HEAD-START; head -c 5000000 < <(yes 'flood line'); echo; echo TAIL-END", { capBytes: cap });
    const out = await runCommand(s);
    expect(out.exitCode).toBe(0);
    const printed = "HEAD-START\n".length + 5_000_000 + 1 + "TAIL-END\n".length;
    expect(out.totalBytes).toBe(printed);
    expect(out.storedBytes).toBe(cap);
    const dropped = printed - cap;
    expect(out.note).toContain(`(${printed} bytes)`);
    expect(out.note).toContain(`${dropped} bytes in between were dropped`);

    const stored = fs.readFileSync(s.logPath);
    // Near the cap: the kept bytes plus the marker line.
    expect(stored.length).toBeGreaterThanOrEqual(cap);
    expect(stored.length).toBeLessThan(cap + 1024);
    const text = stored.toString("utf8");
    expect(text.startsWith("HEAD-START\nflood line\n")).toBe(true);
    // 5,000,000 bytes of "flood line\n" end in the middle of a line ("flood"), then the echoes.
    expect(text.endsWith("flood line\nflood\nTAIL-END\n")).toBe(true);
    expect(text).toContain(`[gatehouse] log cut: `);
    expect(text).toContain(`${dropped} bytes in between were dropped`);
    expect(text.match(/\[gatehouse\] log cut/g)).toHaveLength(1);
    // The ring file is gone.
    expect(fs.existsSync(`${s.logPath}.ring`)).toBe(false);

    expect(out.tail.startsWith(`[gatehouse] ${out.note}\n`)).toBe(true);
    expect(out.tail.endsWith("TAIL-END\n")).toBe(true);
    expect(Buffer.byteLength(out.tail)).toBeLessThanOrEqual(TAIL_BYTES + Buffer.byteLength(out.note!) + 32);
    expect(out.message).toBe("TAIL-END");
  });

  it("a log under the cap is stored whole, with no note", async () => {
    const s = spec("seq 1 1000", { capBytes: 64 * 1024 });
    const out = await runCommand(s);
    expect(out.note).toBeNull();
    expect(fs.readFileSync(s.logPath, "utf8")).toBe(Array.from({ length: 1000 }, (_, i) => `${i + 1}\n`).join(""));
    expect(out.storedBytes).toBe(out.totalBytes);
    expect(out.message).toBe("1000");
  });

  it("memory and disk stay bounded whatever a check prints (1 GB through a 32 MB cap)", async () => {
    const size = 1_000_000_000;
    const s = spec(`head -c ${size} < <(yes 'a line of flood output that goes on'); echo; echo END`, {
      capBytes: 32 * 1024 * 1024,
    });
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    let out: Awaited<ReturnType<typeof runCommand>>;
    try {
      out = await runCommand(s);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(out.exitCode).toBe(0);
    expect(out.totalBytes).toBe(size + "\nEND\n".length);
    expect(out.message).toBe("END");
    expect(fs.statSync(s.logPath).size).toBeLessThan(32 * 1024 * 1024 + 4096);
    const growthMb = (peak - before) / (1024 * 1024);
    expect(growthMb).toBeLessThan(64);
    // Nothing besides the log was left on disk (no tail ring or temporary file).
    expect(fs.readdirSync(path.dirname(s.logPath)).filter((f) => f.startsWith(path.basename(s.logPath)))).toEqual([
      path.basename(s.logPath),
    ]);
    fs.rmSync(s.logPath, { force: true });
  }, 180_000);

  it("stores non-UTF-8 bytes exactly, and the tail is valid text with replacement characters", async () => {
    const s = spec("printf '\\xff\\xfe'; printf 'ok\\n'; printf '\\x00nul\\n'");
    const out = await runCommand(s);
    expect(out.exitCode).toBe(0);
    expect(fs.readFileSync(s.logPath)).toEqual(
      Buffer.from([0xff, 0xfe, 0x6f, 0x6b, 0x0a, 0x00, 0x6e, 0x75, 0x6c, 0x0a]),
    );
    expect(out.tail).toBe("\uFFFD\uFFFDok\n\u2400nul\n");
    expect(out.tail).not.toContain("\0");
    // Round-trips as valid UTF-8.
    expect(Buffer.from(out.tail, "utf8").toString("utf8")).toBe(out.tail);
  });

  it("a tail that starts in the middle of a multi-byte character drops the cut bytes instead of \
showing garbage", async () => {
    // 20,000 × "é" (2 bytes each) and a newline: the last 16 KB start on a continuation byte.
    const s = spec("printf 'é%.0s' {1..20000}; echo");
    const out = await runCommand(s);
    expect(out.totalBytes).toBe(40_001);
    expect(fs.statSync(s.logPath).size).toBe(40_001);
    expect(out.tail.includes("\uFFFD")).toBe(false);
    expect(out.tail.length).toBe(8192);
    expect(out.tail === `${"é".repeat(8191)}\n`).toBe(true);
  });

  it("keeps ANSI colour codes in the log and tail; the message is without them", async () => {
    const s = spec("printf '\\033[31mred text\\033[0m\\n'");
    const out = await runCommand(s);
    expect(fs.readFileSync(s.logPath, "utf8")).toBe("\u001b[31mred text\u001b[0m\n");
    expect(out.tail).toBe("\u001b[31mred text\u001b[0m\n");
    expect(out.message).toBe("red text");
  });
});

describe("runCommand: expectStdout", () => {
  it("finds the expected text even when it is split across output chunks", async () => {
    // The pause makes the two halves arrive as separate reads.
    const out = await runCommand(
      spec("printf 'all tests NEED'; sleep 0.3; printf 'LE passed\\n'", { expectStdout: "NEEDLE passed" }),
    );
    expect(out.exitCode).toBe(0);
    expect(out.isExpectedOutputFound).toBe(true);
  });

  it("is not found when the text never appears (and is found past a cut log)", async () => {
    const missing = await runCommand(spec("echo nothing here", { expectStdout: "NEEDLE" }));
    expect(missing.isExpectedOutputFound).toBe(false);
    // In the dropped middle of a capped log: still found, since the search sees every byte.
    const cut = await runCommand(
      spec("head -c 200000 < <(yes x); echo MIDDLE-NEEDLE; head -c 200000 < <(yes y)", {
        expectStdout: "MIDDLE-NEEDLE",
        capBytes: 64 * 1024,
      }),
    );
    expect(cut.note).not.toBeNull();
    expect(cut.isExpectedOutputFound).toBe(true);
  });

  it("StreamSearch finds a needle split at every position across chunks", () => {
    const needle = "NEEDLE";
    for (let cut = 1; cut < needle.length; cut++) {
      const search = new StreamSearch(needle);
      search.push(Buffer.from(`xx${needle.slice(0, cut)}`));
      expect(search.found).toBe(false);
      search.push(Buffer.from(`${needle.slice(cut)}yy`));
      expect(search.found).toBe(true);
    }
    const byteByByte = new StreamSearch(needle);
    for (const ch of `..${needle}..`) byteByByte.push(Buffer.from(ch));
    expect(byteByByte.found).toBe(true);
  });
});

// Sanity for the helper used throughout these tests.
it("isProcessAlive: true for this process, false for a pid that does not exist", () => {
  expect(isProcessAlive(process.pid)).toBe(true);
  expect(isProcessAlive(2 ** 22 + 12345)).toBe(false);
});

// ---- the pipe poller (a FIFO opened non-blocking, as run-command opens it) ----

async function openPipe(): Promise<{ readFd: number; writeFd: number }> {
  const { readFd, path: fifo } = await fifoPoolFor(path.join(dir, "pipes")).takeReadEnd();
  const writeFd = fs.openSync(fifo, fs.constants.O_WRONLY);
  fs.rmSync(fifo);
  return { readFd, writeFd };
}

function collect(readFd: number) {
  const chunks: Buffer[] = [];
  let ends = 0;
  // The poller reuses its buffer: keep copies, as any consumer must.
  const poller = new PipePoller(
    readFd,
    (chunk) => chunks.push(Buffer.from(chunk)),
    () => ends++,
  );
  return { poller, text: () => Buffer.concat(chunks).toString(), bytes: () => Buffer.concat(chunks), ends: () => ends };
}

describe("PipePoller", () => {
  it("delivers everything written, in order, across pauses, then ends once when the writer closes", async () => {
    const { readFd, writeFd } = await openPipe();
    const c = collect(readFd);
    c.poller.poll();
    fs.writeSync(writeFd, "one\n");
    await waitFor(() => c.text() === "one\n");
    fs.writeSync(writeFd, "two\n");
    fs.writeSync(writeFd, "three\n");
    await waitFor(() => c.text() === "one\ntwo\nthree\n");
    expect(c.ends()).toBe(0);
    fs.closeSync(writeFd);
    await waitFor(() => c.ends() === 1);
    expect(c.poller.closed).toBe(true);
    expect(c.text()).toBe("one\ntwo\nthree\n");
  });

  it("reads more than its buffer and more than the pipe holds, byte for byte", async () => {
    const { readFd, writeFd } = await openPipe();
    const c = collect(readFd);
    c.poller.poll();
    const data = Buffer.alloc(5 * 1024 * 1024);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31) & 0xff;
    // The write end is blocking; write from a child so this process can keep reading.
    const source = path.join(dir, "source.bin");
    fs.writeFileSync(source, data);
    const writer = spawn("cat", [source], { stdio: ["ignore", writeFd, "inherit"] });
    fs.closeSync(writeFd);
    await waitFor(() => c.ends() === 1, { timeoutMs: 20_000, what: "the output to end" });
    await new Promise((resolve) => (writer.exitCode !== null ? resolve(null) : writer.once("exit", resolve)));
    expect(c.bytes().equals(data)).toBe(true);
  });

  it("a poll() when output is waiting reads it at once, without waiting for the next tick", async () => {
    const { readFd, writeFd } = await openPipe();
    const c = collect(readFd);
    c.poller.poll();
    fs.writeSync(writeFd, "now");
    c.poller.poll();
    expect(c.text()).toBe("now");
    fs.closeSync(writeFd);
    c.poller.poll();
    expect(c.ends()).toBe(1);
  });

  it("backs off while the pipe stays quiet", async () => {
    const { readFd, writeFd } = await openPipe();
    const reads = vi.spyOn(fs, "readSync");
    try {
      const c = collect(readFd);
      c.poller.poll();
      // The quiet half second is what is observed here.
      const started = Date.now();
      await waitFor(() => Date.now() - started >= 500);
      // At a fixed 1 ms this would be ~500 reads; doubling up to 64 ms it is about a dozen.
      expect(reads.mock.calls.length).toBeGreaterThan(3);
      expect(reads.mock.calls.length).toBeLessThan(30);
      c.poller.destroy();
    } finally {
      reads.mockRestore();
      fs.closeSync(writeFd);
    }
  });

  it("destroy stops reading and closes the pipe without reporting an end", async () => {
    const { readFd, writeFd } = await openPipe();
    const c = collect(readFd);
    c.poller.poll();
    c.poller.destroy();
    expect(c.poller.closed).toBe(true);
    // The read end is gone: writing now fails with EPIPE (Node ignores SIGPIPE).
    expect(() => fs.writeSync(writeFd, "late")).toThrow(/EPIPE/);
    fs.closeSync(writeFd);
    expect(c.ends()).toBe(0);
  });
});

// ---- no process outlives its check (issue 15.3) ----

// A token unique to one test, put in the detaching process's command line (`sleep 300.<digits>`), so
// /proc finds it even when it threw its environment away (env -i).
let tokens = 0;
const uniqueSleep = () => `300.${process.pid}${Date.now() % 100000}${++tokens}`;

// Waits inside the check until the detached process has surely started (it touches the flag).
const waitForFlag = (flag: string) => `while [ ! -e ${flag} ]; do sleep 0.02; done`;

describe("no process outlives its check, however it detaches", () => {
  const variants: [string, (t: string, flag: string) => string][] = [
    [
      "setsid sleep &; sleep 0.1",
      (t, flag) => `setsid sh -c 'touch ${flag}; exec sleep ${t}' & sleep 0.1; ${waitForFlag(flag)}`,
    ],
    [
      "setsid env -i (no marker left in its environment)",
      (t, flag) => `setsid env -i sh -c 'touch ${flag}; exec sleep ${t}' & ${waitForFlag(flag)}`,
    ],
    [
      "a double fork that closes its descriptors",
      (t, flag) => `( ( exec 0<&- 1>&- 2>&-; touch ${flag}; sleep ${t} ) & ) & ${waitForFlag(flag)}`,
    ],
    [
      "a double fork that closes its descriptors and leaves the session",
      (t, flag) =>
        `( ( exec 0<&- 1>&- 2>&-; setsid sh -c 'touch ${flag}; exec sleep ${t}' ) & ) & ${waitForFlag(flag)}`,
    ],
    ["nohup", (t, flag) => `nohup sh -c 'touch ${flag}; exec sleep ${t}' >/dev/null 2>&1 & ${waitForFlag(flag)}`],
    ["disown", (t, flag) => `sh -c 'touch ${flag}; exec sleep ${t}' & disown; ${waitForFlag(flag)}`],
    [
      "setsid env -i holding the output open, two levels down",
      (t, flag) => `setsid env -i sh -c '(sleep ${t} &); touch ${flag}' & ${waitForFlag(flag)}; echo main done`,
    ],
  ];
  for (const [name, command] of variants) {
    it(`${name}: ended and reaped when the main process exits`, async () => {
      const t = uniqueSleep();
      const flag = path.join(dir, `flag-${t}`);
      // A long close grace: the check ends quickly only because its processes are really gone.
      const out = await runCommand(spec(command(t, flag), { closeGraceMs: 20_000 }));
      try {
        expect(out.exitCode).toBe(0);
        expect(fs.existsSync(flag)).toBe(true);
        expect(out.durationMs).toBeLessThan(10_000);
        // At once, not eventually: the exit is reported only after everything was reaped.
        expect(processesCarrying(t)).toEqual([]);
      } finally {
        killQuietly(processesCarrying(t), [MARK]);
      }
    });
  }

  it("a check that kills its own shim (it runs as root) still leaves nothing: the spawner ends the \
orphans", async (ctx) => {
    if (process.getuid?.() !== 0)
      return ctx.skip("only a check running as the server's user, root here, can kill its shim");
    const t = uniqueSleep();
    const flag = path.join(dir, `flag-${t}`);
    const out = await runCommand(
      spec(`setsid sh -c 'touch ${flag}; exec sleep ${t}' & ${waitForFlag(flag)}; kill -9 $PPID; sleep ${t}`, {
        closeGraceMs: 20_000,
      }),
    );
    try {
      expect(out.exitCode).toBeNull();
      expect(fs.existsSync(flag)).toBe(true);
      expect(await waitFor(() => processesCarrying(t).length === 0, { what: "the orphans to end" })).toBe(true);
    } finally {
      killQuietly(processesCarrying(t), [MARK]);
    }
  });

  it("at a timeout, a detached process goes with the group", async () => {
    const t = uniqueSleep();
    const flag = path.join(dir, `flag-${t}`);
    const out = await runCommand(
      spec(`setsid sh -c 'touch ${flag}; exec sleep ${t}' & ${waitForFlag(flag)}; sleep 60`, { timeoutMs: 1000 }),
    );
    expect(out.isTimedOut).toBe(true);
    expect(processesCarrying(t)).toEqual([]);
  });

  it("also for a check run as another user (nobody)", async (ctx) => {
    if (process.getuid?.() !== 0) return ctx.skip("running as another user needs root");
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-runas-"));
    fs.chmodSync(shared, 0o777);
    try {
      const t = uniqueSleep();
      const flag = path.join(shared, `flag-${t}`);
      const out = await runCommand(
        spec(`id -u; setsid env -i sh -c 'touch ${flag}; exec sleep ${t}' & ${waitForFlag(flag)}; echo main done`, {
          cwd: shared,
          runAs: { uid: 65534, gid: 65534 },
          closeGraceMs: 20_000,
        }),
      );
      expect(out.exitCode).toBe(0);
      expect(out.tail).toBe("65534\nmain done\n");
      expect(fs.statSync(flag).uid).toBe(65534);
      expect(processesCarrying(t)).toEqual([]);
    } finally {
      fs.rmSync(shared, { recursive: true, force: true });
    }
  });

  it("git through execCaptured: its output read the same way, and nothing it leaves survives it", async () => {
    const t = uniqueSleep();
    const flag = path.join(dir, `flag-${t}`);
    const detach = `setsid sh -c 'touch ${flag}; exec sleep ${t}' >/dev/null & ${waitForFlag(flag)}`;
    try {
      const got = await execCaptured("bash", ["-c", `echo to-stdout; echo to-stderr >&2; ${detach}; exit 3`], {
        cwd: dir,
        env: ENV,
        pipeDir: path.join(dir, "pipes"),
        timeoutMs: 20_000,
      });
      expect(got).toEqual({ code: 3, stdout: "to-stdout\n", stderr: "to-stderr\n" });
      expect(processesCarrying(t)).toEqual([]);
      await expect(
        execCaptured("no-such-command-here", [], {
          cwd: dir,
          env: ENV,
          pipeDir: path.join(dir, "pipes"),
          timeoutMs: 1000,
        }),
      ).rejects.toThrow(/could not start: No such file/);
    } finally {
      killQuietly(processesCarrying(t), [MARK]);
    }
  });
});

// A small program (run by tsx) that uses the process path as the server does; it prints the log of a
// check and exits, or stays up when told to.
const ROOT = path.resolve(__dirname, "..", "..", "..");
function childScript(command: string, after: "exit" | "hang"): string {
  return `
import fs from "node:fs";
import { runCommand } from ${JSON.stringify(path.join(ROOT, "lib/runner/process/run-command.ts"))};
import { NO_MASKING } from ${JSON.stringify(path.join(ROOT, "lib/runner/output/masker.ts"))};
const dir = process.argv[2];
const inherited = [251].filter((fd) => { try { fs.fstatSync(fd); return true; } catch { return false; } });
process.stdout.write("INHERITED " + inherited.join(",") + "\\n");
const running = runCommand({
  command: ${JSON.stringify(command)}, cwd: dir, env: ${JSON.stringify(ENV)}, timeoutMs: 60000,
  logPath: dir + "/child.log", capBytes: 1 << 20, masker: NO_MASKING, pipeDir: dir + "/pipes",
  onSpawn: () => process.stdout.write("SPAWNED\\n"),
});
${
  after === "exit"
    ? 'running.then(() => { process.stdout.write("LOG " + ' +
      'JSON.stringify(fs.readFileSync(dir + "/child.log", "utf8")) + "\\n"); process.exit(0); });'
    : "setInterval(() => undefined, 1000);"
}
`;
}

function startChild(command: string, after: "exit" | "hang") {
  const scratch = fs.mkdtempSync(path.join(dir, "child-"));
  const script = path.join(scratch, "child.ts");
  fs.writeFileSync(script, childScript(command, after));
  // fd 251: a pipe this test holds open and hands down, as whatever started the server once did.
  const stdio: ("pipe" | "ignore" | "inherit")[] = [
    "ignore",
    "pipe",
    "inherit",
    ...Array<"ignore">(248).fill("ignore"),
    "pipe",
  ];
  const child = spawn(process.execPath, ["--import", "tsx", script, scratch], { cwd: ROOT, stdio });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, output: () => out, exited };
}

describe("descriptors (issue 15.8)", () => {
  it("a check sees only 0, 1 and 2, whatever its server was started with", async () => {
    const run = startChild("ls -l /proc/self/fd", "exit");
    await run.exited;
    expect(run.output()).toContain("INHERITED 251\n");
    const log = JSON.parse(/^LOG (.*)$/m.exec(run.output())![1]) as string;
    const fds = [...log.matchAll(/ (\d+) -> /g)].map((m) => Number(m[1]));
    // 0, 1, 2 and the one ls opened to read /proc/self/fd.
    expect(fds.slice(0, 3)).toEqual([0, 1, 2]);
    expect(fds.length).toBe(4);
    expect(log).toMatch(new RegExp(` ${fds[3]} -> /proc/\\d+/fd`));
  }, 60_000);
});

describe("when the server goes away", () => {
  it("a server that dies mid-check takes the check and what it detached with it", async () => {
    const t = uniqueSleep();
    const run = startChild(`setsid sleep ${t} & sleep ${t}`, "hang");
    await waitFor(() => run.output().includes("SPAWNED"), { timeoutMs: 30_000, what: "the check to start" });
    try {
      // The check's shell and its two sleeps (one detached).
      await waitFor(() => processesCarrying(t).length === 3, { what: "the check's processes" });
      // The "server" is killed without any clean-up of its own: the spawner sees its requests end.
      run.child.kill("SIGKILL");
      await run.exited;
      expect(await waitFor(() => processesCarrying(t).length === 0, { what: "the check's processes to end" })).toBe(
        true,
      );
    } finally {
      run.child.kill("SIGKILL");
      killQuietly(processesCarrying(t), [MARK]);
    }
  }, 60_000);
});

// ---- the guards every signal goes through (issue 15.10) ----

describe("signal guards", () => {
  it("refuses group ids 0, 1, negative, non-integer, this process and its own group", () => {
    for (const pid of [0, 1, -1, -4242, 1.5, Number.NaN, process.pid, ownProcessGroup()])
      expect(() => signalGroup({ pid, startTime: "0" }, "SIGKILL")).toThrow(/refusing to signal/);
    for (const pid of [0, 1, -1, process.pid, ownProcessGroup()])
      expect(() => killMarked(pid, [MARK])).toThrow(/refusing to signal/);
    expect(() => killMarked(2 ** 22 + 1, [])).toThrow(/without a marker/);
  });

  it("signals a group only while the process it was started for still leads it", async () => {
    const launched = await launch({
      file: "sleep",
      args: ["30"],
      cwd: dir,
      env: ENV,
      stdinPath: null,
      outPath: "/dev/null",
    });
    if ("error" in launched) throw new Error(launched.error);
    const identity = identify(launched.pid)!;
    // A different start time: the pid is someone else's now, as after pid_max wrapped.
    expect(signalGroup({ pid: identity.pid, startTime: `${identity.startTime}1` }, "SIGKILL")).toBe(false);
    expect(isProcessAlive(launched.pid)).toBe(true);
    expect(signalGroup(identity, "SIGKILL")).toBe(true);
    expect(await launched.exited).toEqual({ code: null, signal: "SIGKILL" });
    // Gone and reaped: the same identity is refused, and asking the spawner does nothing.
    expect(signalGroup(identity, "SIGKILL")).toBe(false);
    launched.signal("SIGKILL");
  });

  it("kills a pid only when it carries the marker, checked just before the signal", async () => {
    const launched = await launch({
      file: "sleep",
      args: ["30"],
      cwd: dir,
      env: ENV,
      stdinPath: null,
      outPath: "/dev/null",
    });
    if ("error" in launched) throw new Error(launched.error);
    expect(killMarked(launched.pid, [`${MARK}-not-this-one`])).toBe(false);
    expect(killMarked(launched.pid, [MARK, "GATEHOUSE_RUN_ID=other"])).toBe(false);
    expect(isProcessAlive(launched.pid)).toBe(true);
    expect(killMarked(launched.pid, [MARK])).toBe(true);
    expect((await launched.exited).signal).toBe("SIGKILL");
    // A pid that no longer exists: nothing to signal.
    expect(killMarked(launched.pid, [MARK])).toBe(false);
  });

  it("the spawner's shim signals only its command's group: signal() after the exit does nothing", async () => {
    const launched = await launch({
      file: "true",
      args: [],
      cwd: dir,
      env: ENV,
      stdinPath: null,
      outPath: "/dev/null",
    });
    if ("error" in launched) throw new Error(launched.error);
    expect(await launched.exited).toEqual({ code: 0, signal: null });
    const sends = vi.spyOn(process, "kill");
    try {
      launched.signal("SIGKILL");
      expect(sends).not.toHaveBeenCalled();
    } finally {
      sends.mockRestore();
    }
    // This process and its group are still here to tell.
    expect(isProcessAlive(process.pid)).toBe(true);
  });
});

describe("the FIFO pool", () => {
  it("is closed only once the batch it makes in the background is made, so its folder can go", async () => {
    const pipes = path.join(dir, "pipes-closed");
    const pool = fifoPoolFor(pipes);
    const take = async () => {
      const end = await pool.takeReadEnd();
      fs.closeSync(end.readFd);
      fs.rmSync(end.path);
    };
    await take();
    const batch = fs.readdirSync(pipes).length + 1;
    // Taken down to a quarter of a batch, the pool makes the next one beside the commands that take them.
    while (fs.readdirSync(pipes).length >= batch / 4) await take();
    const left = fs.readdirSync(pipes).length;
    await closeFifoPoolsUnder(dir);
    // The batch started in the background was waited for: nothing writes into the folder after this.
    expect(fs.readdirSync(pipes).length).toBe(left + batch);
    fs.rmSync(pipes, { recursive: true });
    expect(fs.existsSync(pipes)).toBe(false);
    // Forgotten: the folder's next command gets a pool that makes the folder anew.
    expect(fifoPoolFor(pipes)).not.toBe(pool);
  });
});
