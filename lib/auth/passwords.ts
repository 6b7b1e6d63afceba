// Password hashing with scrypt (memory-hard: 32 MB per hash), stored as scrypt$N$r$p$salt$hash.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_MEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

// `n` (scrypt's cost) is recorded in the hash, which is verified at its own cost: only tests that count
// many sign-ins (the throttle's) pass a cheaper one than the default.
export async function hashPassword(password: string, n = N): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, n, R, P);
  return `scrypt$${n}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

// Spends the same time as a real check, so unknown emails cannot be told apart by timing.
let dummy: Promise<string> | null = null;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword("gatehouse-timing-equaliser");
  await verifyPassword(password, await dummy);
}

// A password that can never match (accounts that sign in only with tokens).
export const UNUSABLE_PASSWORD = "disabled$";
