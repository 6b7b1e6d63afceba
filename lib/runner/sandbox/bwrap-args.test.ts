import { describe, expect, it } from "vitest";
import { bwrapArgs, type SandboxPlan } from "./bwrap-args";
import { describeSandboxMode, isSandboxRequested, resolveSandboxMode } from "./mode";
import { DEFAULT_SANDBOX_POLICY, sandboxPolicyOf } from "./policy";

const PLAN: SandboxPlan = {
  mounts: [],
  masks: ["/srv/data", "/srv"],
  binds: [
    { path: "/srv/data/worktrees/t1", mode: "rw" },
    { path: "/srv/data/repos/w1.git", mode: "ro" },
    { path: "/srv/data/repos/w1.git/objects", mode: "rw" },
  ],
  network: "on",
  cwd: "/srv/data/worktrees/t1/sub",
};

// The value after each occurrence of a flag (or pairs, for two-argument flags).
function valuesAfter(args: string[], flag: string, arity = 1): string[][] {
  return args.flatMap((a, i) => (a === flag ? [args.slice(i + 1, i + 1 + arity)] : []));
}

describe("bwrapArgs", () => {
  it("shows the system read-only, its own PID namespace and /proc, a private /tmp, and ends at the command", () => {
    const args = bwrapArgs(PLAN);
    expect(args.slice(0, 2)).toEqual(["--unshare-user", "--unshare-pid"]);
    expect(valuesAfter(args, "--ro-bind", 2)[0]).toEqual(["/", "/"]);
    expect(valuesAfter(args, "--proc")).toEqual([["/proc"]]);
    expect(valuesAfter(args, "--tmpfs")).toContainEqual(["/tmp"]);
    expect(args.slice(-3)).toEqual(["--chdir", "/srv/data/worktrees/t1/sub", "--"]);
    expect(args.at(-1)).toBe("--");
    expect(args).not.toContain("--unshare-net");
  });

  it("masks outer folders first, binds back in order, then makes the masks read-only", () => {
    const args = bwrapArgs(PLAN);
    const tmpfs = valuesAfter(args, "--tmpfs").map(([d]) => d);
    expect(tmpfs.filter((d) => d.startsWith("/srv"))).toEqual(["/srv", "/srv/data"]);
    const order = args.filter((a) => a === "--tmpfs" || a === "--bind" || a === "--ro-bind" || a === "--remount-ro");
    expect(order.slice(-7)).toEqual([
      "--tmpfs",
      "--tmpfs",
      "--bind",
      "--ro-bind",
      "--bind",
      "--remount-ro",
      "--remount-ro",
    ]);
    expect(valuesAfter(args, "--bind", 2)).toEqual([
      ["/srv/data/worktrees/t1", "/srv/data/worktrees/t1"],
      ["/srv/data/repos/w1.git/objects", "/srv/data/repos/w1.git/objects"],
    ]);
  });

  it("network off: its own network namespace (loopback only), and no host Unix sockets under /run", () => {
    const args = bwrapArgs({ ...PLAN, network: "off" });
    expect(args).toContain("--unshare-net");
    expect(valuesAfter(args, "--tmpfs")).toContainEqual(["/run"]);
  });

  it("binds the Work's mounts before the masks, so none of them can re-open a masked folder", () => {
    const args = bwrapArgs({
      ...PLAN,
      mounts: [
        { path: "/opt/cache", mode: "rw" },
        { path: "/opt/tools", mode: "ro" },
      ],
    });
    const firstMask = args.indexOf("--tmpfs", args.indexOf("/var/tmp"));
    expect(args.indexOf("/opt/cache")).toBeLessThan(firstMask);
    expect(valuesAfter(args, "--bind", 2)[0]).toEqual(["/opt/cache", "/opt/cache"]);
    expect(valuesAfter(args, "--ro-bind", 2)[1]).toEqual(["/opt/tools", "/opt/tools"]);
  });
});

describe("sandboxPolicyOf", () => {
  it.each([
    ["a run from before the settings", {}, "agent", DEFAULT_SANDBOX_POLICY],
    ["the agent's network off", { agentNetwork: "off", checkNetwork: "on" }, "agent", { network: "off", mounts: [] }],
    ["the reviewer follows the agent's", { agentNetwork: "off" }, "reviewer", { network: "off", mounts: [] }],
    ["the checks' network off", { agentNetwork: "on", checkNetwork: "off" }, "check", { network: "off", mounts: [] }],
    [
      "mounts, with anything malformed left out",
      {
        sandboxMounts: [
          { path: "/opt/cache", mode: "rw" },
          { path: "relative", mode: "ro" },
          { path: "/x", mode: "rwx" },
        ],
      },
      "check",
      { network: "on", mounts: [{ path: "/opt/cache", mode: "rw" }] },
    ],
  ] as const)("%s", (_, record, role, expected) => {
    expect(sandboxPolicyOf(record, role)).toEqual(expected);
  });
});

describe("GATEHOUSE_SANDBOX", () => {
  it.each([
    [undefined, true],
    ["", true],
    ["on", true],
    ["ON", true],
    ["off", false],
    [" off ", false],
  ])("%j: sandboxed %s", (value, expected) => {
    expect(isSandboxRequested({ GATEHOUSE_SANDBOX: value })).toBe(expected);
  });

  it("refuses any other value, naming the setting", () => {
    expect(() => isSandboxRequested({ GATEHOUSE_SANDBOX: "no" })).toThrow(/GATEHOUSE_SANDBOX must be "on" or "off"/);
  });

  it("off is said plainly in the start-up log; unavailable names the setting to change", () => {
    expect(describeSandboxMode({ kind: "off" }, null)).toMatch(/OFF.*can reach this platform/);
    const mode = resolveSandboxMode({}, null, "darwin");
    expect(mode.kind).toBe("unavailable");
    expect(describeSandboxMode(mode, null)).toMatch(/needs Linux.*GATEHOUSE_SANDBOX=off.*refused/);
  });
});
