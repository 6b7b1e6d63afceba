// What a Work's settings ask of the sandbox for one kind of command: network on or off, and the extra paths
// bound in (`sandboxMounts`). The settings are frozen into the run; a run from before they existed (or a
// branch where they are not stored yet) gets the defaults: network on, no extra mount.
export type SandboxMount = { path: string; mode: "ro" | "rw" };
export type SandboxPolicy = { network: "on" | "off"; mounts: SandboxMount[] };

// "agent": the agent step; "reviewer": the commands that act like an agent for the platform (review, red
// team: the agent's network setting, a HOME of their own); "check": everything that judges the work
// (checks, proof re-runs, probes, mutation runs).
export type CommandRole = "agent" | "reviewer" | "check";

export const DEFAULT_SANDBOX_POLICY: SandboxPolicy = { network: "on", mounts: [] };

type FrozenSandboxSettings = { agentNetwork?: unknown; checkNetwork?: unknown; sandboxMounts?: unknown };

// The one adapter from a run (or Work) record to the policy of a command of that role.
export function sandboxPolicyOf(record: object, role: CommandRole): SandboxPolicy {
  const frozen = record as FrozenSandboxSettings;
  const network = role === "check" ? frozen.checkNetwork : frozen.agentNetwork;
  const mounts = Array.isArray(frozen.sandboxMounts) ? frozen.sandboxMounts.filter(isMount) : [];
  return { network: network === "off" ? "off" : "on", mounts: mounts.map((m) => ({ path: m.path, mode: m.mode })) };
}

function isMount(value: unknown): value is SandboxMount {
  const m = value as Partial<SandboxMount> | null;
  return (
    typeof m?.path === "string" &&
    m.path.startsWith("/") &&
    (m.mode === "ro" || m.mode === "rw") &&
    !m.path.includes("\0")
  );
}
