// What the sandbox a run ran under means, in words for the run page and /api/health.
export function sandboxWords(kind: string | null): { label: string; warning: string | null } {
  if (kind === "bwrap")
    return {
      label: "sandboxed (bubblewrap)",
      warning: null,
    };
  if (kind === "off")
    return {
      label: "not sandboxed",
      warning:
        "GATEHOUSE_SANDBOX=off: the agent and the checks ran without the sandbox and could reach " +
        "the platform — its database, secret key, logs and other runs — and write " +
        "anywhere the server's user can.",
    };
  if (kind === "unavailable")
    return {
      label: "sandbox unavailable",
      warning:
        "The sandbox could not start on the machine that ran this, so its commands were refused " +
        "(see /api/health; GATEHOUSE_SANDBOX names the setting).",
    };
  return { label: "sandbox not recorded", warning: null };
}
