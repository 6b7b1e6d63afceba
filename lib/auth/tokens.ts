// Random secrets for sessions and API tokens; only their SHA-256 is stored.
import { createHash, randomBytes } from "node:crypto";

export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export const API_TOKEN_PREFIX = "gh_";
export const SESSION_COOKIE = "gatehouse_session";
export const SESSION_DAYS = 30;
