// Where the CLI finds its server and token, read once: GATEHOUSE_URL and GATEHOUSE_TOKEN win; otherwise
// what `gatehouse login` stored in $XDG_CONFIG_HOME/gatehouse/config.json (~/.config by default), a file
// only its owner can read since it holds a token.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CliError } from "./cli-error";

// `urlFrom`: where the address came from, so a reply that is not Gatehouse's API names what to correct.
export type CliConfig = { url: string; token: string; urlFrom?: "GATEHOUSE_URL" | "login" };

function configFilePath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), ".config");
  return path.join(base, "gatehouse", "config.json");
}

function readStored(file: string): Partial<CliConfig> {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<CliConfig>;
    return { url: typeof parsed.url === "string" ? parsed.url : undefined, token: parsed.token };
  } catch {
    return {};
  }
}

export function loadConfig(env: NodeJS.ProcessEnv): CliConfig {
  const stored = readStored(configFilePath(env));
  const url = env.GATEHOUSE_URL || stored.url;
  const token = env.GATEHOUSE_TOKEN || stored.token;
  if (!url) throw new CliError("no server: set GATEHOUSE_URL or run `gatehouse login <url>`");
  if (!token) throw new CliError("no token: set GATEHOUSE_TOKEN or run `gatehouse login <url>`");
  return { url: url.replace(/\/+$/, ""), token, urlFrom: env.GATEHOUSE_URL ? "GATEHOUSE_URL" : "login" };
}

export function storeConfig(config: CliConfig, env: NodeJS.ProcessEnv): string {
  const file = configFilePath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const stored = { url: config.url, token: config.token };
  fs.writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return file;
}
