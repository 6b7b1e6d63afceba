// The shared sandbox of an attempt's checks (lib/runner/sandbox/attempt-sandbox.ts) attacked by the code
// under test in a check, as an agent's commit would: what one check leaves must not reach a later one (a
// held-out check among them), nothing it does to its shim turns a failure into a pass, no process outlives
// it, and the user and mount namespace it runs in opens nothing the sandbox hides. Each attack that works
// prints "LEAK …" (or turns a later check's verdict), so the run shows which held. Runs as root.
import { expect, it } from "vitest";
import { describeAsRoot } from "../testing/needs-root";
import { sandboxedHarness } from "../testing/sandboxed-harness";
import { check, dispatchAndSettle, makeScenario, verdictsOf, type Harness } from "../testing/runner-harness";

let h: Harness;

const scenario = (work: Record<string, unknown>, files: Record<string, string> = {}) =>
  makeScenario(h, work, { files });

const resultOf = (detail: Awaited<ReturnType<typeof dispatchAndSettle>>, id: string) => {
  const r = detail.attempts[0].results.find((x) => x.checkId === id);
  if (!r) throw new Error(`no result for ${id}`);
  return r;
};

// Forges a signal to this command's shim (its parent) with rt_sigqueueinfo, whose siginfo the sender
// writes itself: si_code SI_QUEUE and si_pid the spawner's, as the spawner's own CONTROL_SIG would carry.
const FORGE = `import ctypes, os, signal, struct
libc = ctypes.CDLL(None, use_errno=True)
def parent(pid):
    return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
shim = os.getppid()
while b"--inside" not in open(f"/proc/{shim}/cmdline", "rb").read():
    shim = parent(shim)
spawner = parent(shim)
def forge(sig, value):
    info = bytearray(128)
    struct.pack_into("iii", info, 0, sig, 0, -1)  # si_signo, si_errno, si_code = SI_QUEUE
    struct.pack_into("iI", info, 16, spawner, os.getuid())  # si_pid (forged), si_uid
    struct.pack_into("q", info, 24, value)  # si_value
    buf = (ctypes.c_char * 128).from_buffer(info)
    ok = libc.syscall(129, shim, sig, buf) == 0  # rt_sigqueueinfo
    print("forged", sig, value, "accepted" if ok else os.strerror(ctypes.get_errno()), flush=True)
control = signal.SIGRTMIN + 2
for value in (signal.SIGCONT, signal.SIGWINCH, 0, 4096):
    forge(control, value)
forge(signal.SIGCHLD, 0)
print("shim", shim, "spawner", spawner, flush=True)
`;

// The pid of this command's shim: its nearest ancestor whose command line names `--inside`.
const SHIM_PID = `shim_pid() {
  local p=$$
  while [ "$p" -gt 1 ]; do
    tr '\\0' ' ' < "/proc/$p/cmdline" | grep -q -- --inside && { echo "$p"; return; }
    p=$(awk '{ sub(/.*\\) /, ""); print $2 }' "/proc/$p/stat")
  done
}
`;

describeAsRoot("an attempt's shared sandbox, attacked from a check", () => {
  sandboxedHarness((made) => {
    h = made;
  });

  // Broken before isolate() made /dev read-only for each command: the sandbox's /dev (bwrap's --dev, a
  // tmpfs owned by the sandbox's user) was one for every check and writable; a check that pointed /dev/fd
  // at files of its own made a later (held-out) check's process substitution read them, so
  // `cmp <(actual) <(expected)` said equal and the check passed.
  it("a check cannot rewrite /dev for a later check: a held-out comparison still fails", async () => {
    const plant = `mkdir -p /dev/shm/fake && printf same > /dev/shm/fake/63 && printf same > /dev/shm/fake/62
rm -f /dev/fd 2>/dev/null && ln -s /dev/shm/fake /dev/fd 2>/dev/null && echo "LEAK: replaced /dev/fd"
exit 0`;
    const s = await scenario(
      {
        checkDefaults: [
          check("plant", "bash plant.sh"),
          check("heldout", "cmp <(echo actual) <(echo expected)"),
          check("dev-intact", `[ "$(readlink /dev/fd)" = /proc/self/fd ]`),
        ],
      },
      { "plant.sh": plant },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(verdictsOf(detail, 1)).toMatchObject({ plant: "passed", heldout: "failed", "dev-intact": "passed" });
    expect(detail.run.gate).toBe("red");
  });

  // Broken before isolate() gave each command a fresh /dev/shm, a read-only /dev, an IPC namespace and a
  // session keyring: /dev/shm, /dev, the sandbox's SysV queues and shared memory and its session keyring
  // (bwrap's) were one for every check of the attempt, and outlived the check.
  it("nothing a check leaves in /dev, /dev/shm, SysV IPC or a keyring reaches the next check", async () => {
    const plant = `echo left > /dev/shm/rt-left 2>/dev/null && echo "planted /dev/shm"
echo left > /dev/rt-left 2>/dev/null && echo "planted /dev"
ipcmk -Q >/dev/null 2>&1 && echo "planted a message queue"
ipcmk -M 4096 >/dev/null 2>&1 && echo "planted shared memory"
/usr/bin/python3 -c '
import ctypes
libc = ctypes.CDLL(None)
for ring in (-3, -4, -5):  # session, user, user-session keyrings
    libc.syscall(248, b"user", b"rt-left-%d" % -ring, b"left", 4, ring)  # add_key
'
grep -c rt-left /proc/keys
exit 0`;
    const later = `leak() { echo "LEAK: $1"; }
[ -e /dev/shm/rt-left ] && leak "a file in /dev/shm"
[ -e /dev/rt-left ] && leak "a file in /dev"
ipcs -q | grep -q '^0x' && leak "a SysV message queue"
ipcs -m | grep -q '^0x' && leak "a SysV shared memory segment"
# A key dies with the last keyring holding it, which the kernel's key collector finds a moment later.
for i in $(seq 50); do grep -q rt-left /proc/keys || break; sleep 0.1; done
grep -q rt-left /proc/keys && leak "a key: $(grep -o 'rt-left-[0-9]' /proc/keys | tr '\\n' ' ')"
echo looked`;
    const s = await scenario(
      { checkDefaults: [check("plant", "bash plant.sh"), check("later", "bash later.sh")] },
      { "plant.sh": plant, "later.sh": later },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const [planted, seen] = [resultOf(detail, "plant"), resultOf(detail, "later")];
    // A check still has a /dev/shm and SysV IPC to use; /dev itself is read-only.
    expect(planted.logTail).toContain("planted /dev/shm");
    expect(planted.logTail).toContain("planted a message queue");
    expect(planted.logTail).not.toContain("planted /dev\n");
    expect(seen.logTail).toContain("looked");
    expect(seen.logTail).not.toContain("LEAK");
  });

  it("signals forged to its shim (a spoofed spawner pid in rt_sigqueueinfo) do not turn a failure into a pass", async () => {
    const s = await scenario(
      {
        checkDefaults: [
          check("forger", "trap '' WINCH CONT; /usr/bin/python3 forge.py; sleep 0.2; exit 3"),
          check("after", "echo still-here"),
        ],
      },
      { "forge.py": FORGE },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const forger = resultOf(detail, "forger");
    // The kernel takes the forged siginfo (a negative si_code is any sender's to write): only the shim's
    // own rules stand between it and the command.
    expect(forger.logTail).toMatch(/forged \d+ \d+ accepted/);
    expect(forger.verdict).not.toBe("passed");
    expect(forger.exitCode).not.toBe(0);
    expect(resultOf(detail, "after").verdict).toBe("passed");
    expect(detail.run.gate).toBe("red");
  });

  it("a check that kills its own shim fails, and the daemon it started does not reach the next check", async () => {
    const killer = `${SHIM_PID}shim=$(shim_pid)
[ -n "$shim" ] || { echo "found no shim"; exit 0; }
setsid bash -c 'exec -a rt-daemon-left bash -c "while :; do sleep 0.05; done"' </dev/null >/dev/null 2>&1 &
( bash -c 'exec -a rt-daemon-left sleep 300' & ) </dev/null >/dev/null 2>&1
sleep 0.2
kill -9 "$shim"
sleep 1
exit 0`;
    const later = `grep -lsa rt-daemon-lef[t] /proc/[0-9]*/cmdline && echo "LEAK: a process of the check before"
echo "processes: $(ls /proc | grep -cE '^[0-9]+$')"`;
    const s = await scenario(
      { checkDefaults: [check("killer", "bash killer.sh"), check("later", later)] },
      { "killer.sh": killer },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const [killed, after] = [resultOf(detail, "killer"), resultOf(detail, "later")];
    expect(killed.logTail ?? "").not.toContain("found no shim");
    expect(killed.verdict).not.toBe("passed");
    expect(killed.exitCode).not.toBe(0);
    expect(after.verdict).toBe("passed");
    expect(after.logTail).toContain("processes:");
    expect(after.logTail).not.toContain("LEAK");
  });

  it("a check that stops its own shim times out instead of passing or holding the run", async () => {
    const s = await scenario({
      checkDefaults: [
        check("stopper", `${SHIM_PID}kill -STOP "$(shim_pid)"; exit 0`, { timeoutSec: 1 }),
        check("after", "echo ran"),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(resultOf(detail, "stopper").verdict).not.toBe("passed");
    expect(resultOf(detail, "after").verdict).toBe("passed");
  });

  it("the check's own user and mount namespace open nothing: no unmount, remount, trace or foreign /proc root", async () => {
    const attack = `${SHIM_PID}leak() { echo "LEAK: $1"; }
shim=$(shim_pid)
pipes=$(tr '\\0' '\\n' < /proc/$shim/cmdline | grep -A1 -x -- --inside | tail -1)
[ -n "$pipes" ] || leak "found no pipe folder to attack (the test would prove nothing)"
data=\${pipes%%/run-files/*}
umount "$pipes" 2>/dev/null && leak "unmount the pipes' cover"
umount /tmp 2>/dev/null && leak "unmount the fresh /tmp"
unshare -Urm sh -c "umount '$pipes' || umount -l '$pipes'" 2>/dev/null && ls -A "$pipes" | grep -q . && leak "unmount the pipes' cover in a nested namespace"
unshare -Urm sh -c "umount /tmp || umount -l /tmp" 2>/dev/null && leak "unmount /tmp in a nested namespace"
unshare -Urm sh -c "mount -o remount,bind,rw '$data' && touch '$data/planted'" 2>/dev/null && leak "remount the data dir's cover writable"
unshare -Urm sh -c "mount -o remount,bind,rw / && touch /etc/planted" 2>/dev/null && leak "remount / writable"
touch "$data/planted" 2>/dev/null && leak "write the data dir"
echo "0 0 1" > /proc/self/uid_map 2>/dev/null && leak "rewrite its uid map"
echo allow > /proc/self/setgroups 2>/dev/null && leak "allow setgroups"
for p in 1 $shim $(ps -o ppid= -p $shim); do
  ls "/proc/$p/root/" >/dev/null 2>&1 && leak "enter /proc/$p/root"
  for fd in /proc/$p/fd/*; do readlink "$fd" >/dev/null 2>&1 && leak "follow $fd"; done
  cat "/proc/$p/environ" >/dev/null 2>&1 && leak "read /proc/$p/environ"
  strace -p "$p" -o /dev/null 2>/dev/null & t=$!; sleep 0.2; kill -0 $t 2>/dev/null && leak "trace $p"; kill $t 2>/dev/null; wait $t 2>/dev/null
  nsenter -t "$p" -m true 2>/dev/null && leak "enter $p's mount namespace"
done
echo "attacks done"`;
    const s = await scenario({ checkDefaults: [check("attack", "bash attack.sh")] }, { "attack.sh": attack });
    const detail = await dispatchAndSettle(h, s.task.id);
    const attacked = resultOf(detail, "attack");
    expect(attacked.logTail).toContain("attacks done");
    expect(attacked.logTail).not.toContain("LEAK");
  });

  // Not the shared sandbox's own (the checkout is read-write for every check by design): a test the agent
  // committed rewrites, when an earlier check runs it, the script a later held-out check runs (the proof rows
  // never re-run a held-out check). The held-out check is not run on the rewritten script: it fails, saying
  // why without naming the file; an earlier check that writes other files leaves it alone.
  it("an earlier check cannot rewrite a later held-out check's script in the checkout", async () => {
    const s = await scenario(
      {
        agentCommand: [
          "mkdir -p tests && printf 'printf \\x27exit 0\\n\\x27 > gate.sh\\n' > tests/one.test.sh",
          "git add tests && git -c user.name=Agent -c user.email=agent@example.invalid commit -qm 'add a test'",
        ].join("\n"),
        checkDefaults: [
          check("one", "bash tests/one.test.sh", { kind: "test" }),
          check("build", "echo built > build.txt"),
          check("heldout", "bash gate.sh", { hidden: true }),
        ],
      },
      { "gate.sh": "echo the held-out check fails on this change; exit 1\n" },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].agentVerdict).toBe("passed");
    const held = resultOf(detail, "heldout");
    expect(held.verdict).toBe("failed");
    expect(held.message).toBe("not run: a file this held-out check runs was changed by the checks before it");
    expect(detail.run.gate).toBe("red");

    const honest = await scenario(
      { checkDefaults: [check("build", "echo built > build.txt"), check("heldout", "bash gate.sh", { hidden: true })] },
      { "gate.sh": "test -s build.txt\n" },
    );
    const fine = await dispatchAndSettle(h, honest.task.id);
    expect(resultOf(fine, "heldout").verdict).toBe("passed");
    expect(fine.run.gate).toBe("green");
  });

  // Broken before the spawner drained the signals a command sends it: CONTROL_SIG queued on the spawner
  // (which blocks it and never took it) filled its user's queue of pending signals (RLIMIT_SIGPENDING, one
  // count for every sandbox of that user), so every later sigqueue to a shim failed: a later check's
  // timeout (or a cancel) reached it as a SIGKILL of the whole sandbox, without its SIGTERM and grace.
  it("a check that floods the spawner with queued signals leaves a later check its SIGTERM on a timeout", async () => {
    const flood = `${SHIM_PID}spawner=$(awk '{ sub(/.*\\) /, ""); print $2 }' "/proc/$(shim_pid)/stat")
/usr/bin/python3 -c "
import os, signal
for _ in range(200000):
    os.kill($spawner, signal.SIGRTMIN + 2)
"
grep SigQ "/proc/$spawner/status"
exit 1`;
    const later = "trap 'echo got-term; exit 7' TERM; echo waiting; sleep 300 & wait";
    const s = await scenario(
      { checkDefaults: [check("flood", "bash flood.sh"), check("later", later, { timeoutSec: 1 })] },
      { "flood.sh": flood },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(resultOf(detail, "flood").logTail).toMatch(/SigQ:\s+\d+/);
    const after = resultOf(detail, "later");
    expect(after.verdict).toBe("timeout");
    expect(after.logTail).toContain("got-term");
  });

  // The README: with its network off a check's /run is private to it too (bwrap's --tmpfs /run, which would
  // otherwise be one for every check of the sandbox, writable by its user).
  it("with the checks' network off, nothing a check leaves in /run or in /dev reaches the next check", async () => {
    const plant = `echo left > /run/rt-left 2>/dev/null && echo "planted /run"
unshare -Urm sh -c "mount -o remount,bind,rw /dev && echo left > /dev/rt-left" 2>/dev/null && echo "planted /dev"
exit 0`;
    const later = `[ -e /run/rt-left ] && echo "LEAK: a file in /run"
[ -e /dev/rt-left ] && echo "LEAK: a file in /dev"
echo looked`;
    const s = await scenario({ checkNetwork: "off", checkDefaults: [check("plant", plant), check("later", later)] });
    const detail = await dispatchAndSettle(h, s.task.id);
    const [planted, seen] = [resultOf(detail, "plant"), resultOf(detail, "later")];
    expect(planted.logTail).toContain("planted /run");
    expect(planted.logTail).not.toContain("planted /dev");
    expect(seen.logTail).toContain("looked");
    expect(seen.logTail).not.toContain("LEAK");
  });

  // Broken before the spawner ended its sandbox once a command had changed its limits: prlimit(2) needs
  // only the same uid, not ptrace rights, so a check could lower the spawner's resource limits (a hard one
  // cannot be raised back), and every later check of the attempt inherited them (here 64 descriptors and
  // a 1 MB file size limit). Now the next check runs in a new sandbox.
  it("a check cannot change the resource limits a later check starts with", async () => {
    const plant = `${SHIM_PID}spawner=$(awk '{ sub(/.*\\) /, ""); print $2 }' "/proc/$(shim_pid)/stat")
prlimit --pid "$spawner" --nofile=64:64 --fsize=1048576:1048576 2>/dev/null && echo "lowered the spawner's limits"
exit 0`;
    const s = await scenario(
      {
        checkDefaults: [
          check("plant", "bash plant.sh"),
          check(
            "later",
            'echo "nofile $(ulimit -Hn) fsize $(ulimit -Hf)"; [ "$(ulimit -Hn)" != 64 ] && [ "$(ulimit -Hf)" != 1024 ]',
          ),
        ],
      },
      { "plant.sh": plant },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(resultOf(detail, "plant").logTail).toContain("lowered the spawner's limits");
    expect(resultOf(detail, "later").logTail).toMatch(/nofile \S+ fsize \S+/);
    expect(resultOf(detail, "later").verdict).toBe("passed");
  });
});
