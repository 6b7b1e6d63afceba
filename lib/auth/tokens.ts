// Random secrets for sessions and API tokens; only their SHA-256 is stored.
import { createHash, randomBytes } from "node:crypto";

export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

// Says what it is wherever it turns up (a log, a config file, a secret scanner): "gh_" read like a GitHub token.
export const API_TOKEN_PREFIX = "gatehouse_";
export const SESSION_COOKIE = "gatehouse_session";
export const SESSION_DAYS = 30;
