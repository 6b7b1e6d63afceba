// The bubblewrap command line for one sandboxed command, from a plain description (pure: table-tested in
// bwrap-args.test.ts). Every path is bound at the same place inside, so the paths in the command's
// environment (brief, report, results, checks and assets dirs) mean the same thing on both sides.
import type { SandboxMount } from "./policy";

export type SandboxPlan = {
  // The Work's extra paths (sandboxMounts), bound first: a folder hidden below may not be re-opened by one.
  mounts: SandboxMount[];
  // Folders replaced by an empty one (Gatehouse's data dir and install folder).
  masks: string[];
  // What the command is meant to reach, bound back inside the masked folders, in this order (a later bind
  // lies over an earlier one: a read-only folder can hold a writable one).
  binds: SandboxMount[];
  network: "on" | "off";
  cwd: string;
};

const BIND_FLAG = { ro: "--ro-bind", rw: "--bind" } as const;

export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = [
    // Its own PID namespace: it sees and signals nothing outside, and all of it dies with its init. (No
    // --die-with-parent: bwrap dies at a SIGTERM, and the command must outlive that for its grace; the
    // spawner's waiter and shim end everything left.)
    "--unshare-user",
    "--unshare-pid",
    // Every run's commands share one uid: their own IPC namespace keeps SysV/POSIX queues and shared
    // memory between runs apart. (Not the UTS or cgroup namespace: each costs milliseconds a command and
    // hides only the host name and the cgroup's path.)
    "--unshare-ipc",
    ...(plan.network === "off" ? ["--unshare-net"] : []),
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--tmpfs",
    "/var/tmp",
    // Without a network, the host's Unix sockets (PostgreSQL's in /run/postgresql, a D-Bus, …) are out too.
    ...(plan.network === "off" ? ["--tmpfs", "/run"] : []),
  ];
  for (const m of plan.mounts) args.push(BIND_FLAG[m.mode], m.path, m.path);
  // Outer folders first, so an inner one is masked inside the outer's empty replacement.
  const masks = [...plan.masks].sort((a, b) => a.length - b.length);
  for (const dir of masks) args.push("--tmpfs", dir);
  for (const b of plan.binds) args.push(BIND_FLAG[b.mode], b.path, b.path);
  // Then the empty replacements are made read-only (the binds in them are mounts of their own and keep
  // their mode): a write there fails as it would on the system, rather than vanishing with the sandbox.
  for (const dir of masks) args.push("--remount-ro", dir);
  args.push("--chdir", plan.cwd, "--");
  return args;
}
