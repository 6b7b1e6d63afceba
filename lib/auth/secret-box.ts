// Work secrets are encrypted at rest with AES-256-GCM. The key comes from GATEHOUSE_SECRET_KEY (32 bytes,
// base64 or hex) or, when that is unset, from a key file made once in the data dir (mode 0600).
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir } from "../config/database-url";
import { config } from "../config/config";

let cached: { source: string; key: Buffer } | null = null;

function parseKey(text: string): Buffer | null {
  const trimmed = text.trim();
  const fromHex = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : null;
  const key = fromHex ?? Buffer.from(trimmed, "base64");
  return key.length === 32 ? key : null;
}

function loadKey(): Buffer {
  const fromEnv = config().secretKey;
  const source = fromEnv ? "env" : path.join(dataDir(), "secret.key");
  if (cached?.source === source) return cached.key;
  let key: Buffer | null;
  if (fromEnv) {
    key = parseKey(fromEnv);
    if (!key) throw new Error("GATEHOUSE_SECRET_KEY must be 32 bytes, as base64 or 64 hex digits");
  } else {
    if (!fs.existsSync(source)) {
      fs.mkdirSync(path.dirname(source), { recursive: true });
      fs.writeFileSync(source, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    }
    key = parseKey(fs.readFileSync(source, "utf8"));
    if (!key) throw new Error(`${source} does not hold a 32-byte key`);
  }
  cached = { source, key };
  return key;
}

export function sealSecret(value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", loadKey(), iv);
  const ciphertext = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), ciphertext.toString("base64")].join(":");
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(":");
  if (version !== "v1") throw new Error("unknown secret format");
  const decipher = createDecipheriv("aes-256-gcm", loadKey(), Buffer.from(iv, "base64"), { authTagLength: 16 });
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString("utf8");
}
