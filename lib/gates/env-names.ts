// Names of environment variables a check or the agent may see. Names only, never values; platform-owned
// configuration is never grantable, whatever a Work lists.
import { z } from "zod";

export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

// Always set by the runner itself (granting them is harmless but meaningless).
export const BASE_ENV_NAMES = ["PATH", "HOME", "LANG", "TERM", "CI"] as const;
export const RUN_ENV_NAMES = [
  "GATEHOUSE_RUN_ID",
  "GATEHOUSE_ATTEMPT",
  "GATEHOUSE_CHECK_ID",
  "GATEHOUSE_BRIEF_FILE",
  "GATEHOUSE_CHECKS_DIR",
  "GATEHOUSE_REPORT_FILE",
] as const;

const PLATFORM_EXACT = new Set([
  "DATABASE_URL",
  "DIRECT_URL",
  "SHADOW_DATABASE_URL",
  "PGPASSWORD",
  "PGPASSFILE",
  "PGHOST",
  "PGUSER",
  "PGDATABASE",
  "PGSERVICEFILE",
  "NODE_OPTIONS",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "BASH_ENV",
  "ENV",
  "PROMPT_COMMAND",
  "SHELLOPTS",
  "BASHOPTS",
  "PORT",
]);

// Why a name may not be granted, or null when it may.
export function platformOwnedReason(name: string): string | null {
  const upper = name.toUpperCase();
  if (upper.startsWith("GATEHOUSE_")) return `${name} is owned by Gatehouse itself and is never passed to checks`;
  if (upper.startsWith("NEXT_") || upper.startsWith("PRISMA_") || upper.startsWith("__NEXT"))
    return `${name} is server configuration and is never passed to checks`;
  if (PLATFORM_EXACT.has(upper))
    return `${name} is platform configuration (database, loader or shell start-up) and is never passed to checks`;
  return null;
}

export const ZEnvName = z.string({ error: "must be text" }).superRefine((value, ctx) => {
  if (value.includes("=")) {
    ctx.addIssue({
      code: "custom",
      message: "names only, never values: list NAME and store its value as a Work secret",
    });
    return;
  }
  if (!ENV_NAME_PATTERN.test(value)) {
    ctx.addIssue({
      code: "custom",
      message: "an environment variable name: letters, digits and _, not starting with a digit, at most 128 characters",
    });
    return;
  }
  const reason = platformOwnedReason(value);
  if (reason) ctx.addIssue({ code: "custom", message: reason });
});

export const ZEnvNameList = z
  .array(ZEnvName, { error: "must be a list of variable names" })
  .max(50, "at most 50 names")
  .superRefine(
    (names, ctx) => {
      const seen = new Set<string>();
      names.forEach((name, i) => {
        if (typeof name !== "string") return;
        if (seen.has(name)) ctx.addIssue({ code: "custom", path: [i], message: `${name} is listed twice` });
        seen.add(name);
      });
    },
    { when: (payload) => Array.isArray(payload.value) },
  );
