// The scrubbed environment a check or the agent runs with: a fixed minimal set, plus exactly the names
// it lists, from the Work's secrets or the server's environment. Platform-owned names are never
// granted, even when listed (they are refused when saved too; this is the second lock).
import { BASE_ENV_NAMES, platformOwnedReason, RUN_ENV_NAMES } from "../gates/env-names";

export type EnvInput = {
  runId: string;
  attempt: number;
  checkId: string | null;
  briefFile?: string;
  // Where the agent writes its report of the agent checks (the agent only).
  reportFile?: string;
  passthrough: readonly string[];
  secrets: Readonly<Record<string, string>>;
  serverEnv: Readonly<Record<string, string | undefined>>;
  home: string;
};

const FIXED = new Set<string>([...BASE_ENV_NAMES, ...RUN_ENV_NAMES]);
const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// The system's PATH for a command: the server's, without what `npm start`/`npm test` put in front of it
// (every node_modules/.bin up the tree, npm's run-script helpers) and without Gatehouse's install folder:
// a check must run the Work's tools, never Gatehouse's own (nor find them first under a common name).
export function systemPathOf(serverPath: string | undefined, installDir: string = process.cwd()): string {
  const kept = (serverPath || DEFAULT_PATH)
    .split(":")
    .filter((dir) => dir !== "" && dir.startsWith("/"))
    .filter((dir) => !/(^|\/)node_modules(\/|$)/.test(dir) && !dir.includes("/@npmcli/run-script/"))
    .filter((dir) => dir !== installDir && !dir.startsWith(`${installDir}/`));
  return [...new Set(kept)].join(":") || DEFAULT_PATH;
}

export function buildCheckEnv(input: EnvInput): Record<string, string> {
  const env: Record<string, string> = {
    PATH: systemPathOf(input.serverEnv.PATH),
    HOME: input.home,
    LANG: input.serverEnv.LANG || "C.UTF-8",
    TERM: "xterm-256color",
    CI: "true",
    GATEHOUSE_RUN_ID: input.runId,
    GATEHOUSE_ATTEMPT: String(input.attempt),
  };
  if (input.checkId !== null) env.GATEHOUSE_CHECK_ID = input.checkId;
  if (input.briefFile) env.GATEHOUSE_BRIEF_FILE = input.briefFile;
  if (input.reportFile) env.GATEHOUSE_REPORT_FILE = input.reportFile;
  for (const name of input.passthrough) {
    if (FIXED.has(name) || platformOwnedReason(name)) continue;
    const value = Object.hasOwn(input.secrets, name) ? input.secrets[name] : input.serverEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

// The NAME=value entries that identify a command's processes (used to end escaped processes).
export function processMarkers(env: Record<string, string>): string[] {
  return ["GATEHOUSE_RUN_ID", "GATEHOUSE_ATTEMPT", "GATEHOUSE_CHECK_ID"]
    .filter((k) => k in env)
    .map((k) => `${k}=${env[k]}`);
}
