// The secret box: AES-256-GCM with a key from GATEHOUSE_SECRET_KEY (base64 or hex) or from a key file
// made once in the data dir (mode 0600). The module caches its key, so every test imports a fresh copy
// after setting the environment it wants.
import { createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type SecretBox = typeof import("./secret-box");

const saved = { key: process.env.GATEHOUSE_SECRET_KEY, dir: process.env.GATEHOUSE_DATA_DIR };
const dirs: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-secretbox-"));
  dirs.push(dir);
  return dir;
}

// A fresh copy of the module (no cached key), with this environment.
async function freshBox(env: { key?: string; dataDir?: string }): Promise<SecretBox> {
  if (env.key === undefined) delete process.env.GATEHOUSE_SECRET_KEY;
  else process.env.GATEHOUSE_SECRET_KEY = env.key;
  process.env.GATEHOUSE_DATA_DIR = env.dataDir ?? tempDir();
  vi.resetModules();
  return import("./secret-box");
}

// Decrypts a sealed value with a known key, independently of the module.
function openWith(key: Buffer, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(":");
  expect(version).toBe("v1");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"), { authTagLength: 16 });
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString("utf8");
}

// The sealed string with one byte of one of its parts (1 = iv, 2 = tag, 3 = ciphertext) flipped.
function flipByte(sealed: string, part: 1 | 2 | 3, at = 0): string {
  const parts = sealed.split(":");
  const bytes = Buffer.from(parts[part], "base64");
  bytes[at] ^= 0x01;
  parts[part] = bytes.toString("base64");
  return parts.join(":");
}

beforeEach(() => {
  delete process.env.GATEHOUSE_SECRET_KEY;
});

afterEach(() => {
  if (saved.key === undefined) delete process.env.GATEHOUSE_SECRET_KEY;
  else process.env.GATEHOUSE_SECRET_KEY = saved.key;
  if (saved.dir === undefined) delete process.env.GATEHOUSE_DATA_DIR;
  else process.env.GATEHOUSE_DATA_DIR = saved.dir;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("sealing and opening", () => {
  const KEY = randomBytes(32);

  it("round-trips values (unicode, long, and the empty string)", async () => {
    const box = await freshBox({ key: KEY.toString("base64") });
    for (const value of ["s3cr3t-value-42", "pässwörd-🔑 with spaces\nand a newline", "x".repeat(8192), ""]) {
      expect(box.openSecret(box.sealSecret(value))).toBe(value);
    }
  });

  it("the sealed form is v1:iv:tag:ciphertext (12-byte iv, 16-byte tag), different every time, \
without the plaintext", async () => {
    const box = await freshBox({ key: KEY.toString("base64") });
    const value = "s3cr3t-value-42";
    const sealed = Array.from({ length: 20 }, () => box.sealSecret(value));
    expect(new Set(sealed).size).toBe(sealed.length);
    expect(new Set(sealed.map((s) => s.split(":")[1])).size).toBe(sealed.length);
    for (const s of sealed) {
      const [version, iv, tag, ciphertext, ...rest] = s.split(":");
      expect(version).toBe("v1");
      expect(rest).toEqual([]);
      expect(Buffer.from(iv, "base64")).toHaveLength(12);
      expect(Buffer.from(tag, "base64")).toHaveLength(16);
      expect(Buffer.from(ciphertext, "base64")).toHaveLength(Buffer.byteLength(value));
      expect(s).not.toContain(value);
      expect(s).not.toContain(Buffer.from(value).toString("base64").slice(0, 12));
      expect(s).not.toContain(Buffer.from(value).toString("hex").slice(0, 12));
      expect(openWith(KEY, s)).toBe(value);
    }
  });

  it("a flipped byte in the ciphertext, the tag or the iv is refused (authenticated encryption)", async () => {
    const box = await freshBox({ key: KEY.toString("base64") });
    const sealed = box.sealSecret("s3cr3t-value-42");
    for (const part of [1, 2, 3] as const) {
      for (const at of [0, 5, 11]) {
        expect(() => box.openSecret(flipByte(sealed, part, at)), `part ${part}, byte ${at}`).toThrow();
      }
    }
    expect(box.openSecret(sealed)).toBe("s3cr3t-value-42");
  });

  it("a secret sealed under another key is refused", async () => {
    const first = await freshBox({ key: KEY.toString("base64") });
    const sealed = first.sealSecret("s3cr3t-value-42");
    const second = await freshBox({ key: randomBytes(32).toString("base64") });
    expect(() => second.openSecret(sealed)).toThrow();
  });

  it("an unknown format is refused", async () => {
    const box = await freshBox({ key: KEY.toString("base64") });
    const sealed = box.sealSecret("s3cr3t-value-42");
    expect(() => box.openSecret(sealed.replace(/^v1:/, "v2:"))).toThrow(/unknown secret format/);
    expect(() => box.openSecret("s3cr3t-value-42")).toThrow(/unknown secret format/);
  });

  // Found by this test and fixed (one line): openSecret passed no authTagLength, and Node then accepts
  // any GCM tag of 4–16 bytes, so a tag cut to 4 bytes still opened (forgery in ~2^32 tries).
  it("a truncated tag is refused (only 16-byte tags are accepted)", async () => {
    const box = await freshBox({ key: KEY.toString("base64") });
    const [version, iv, tag, ciphertext] = box.sealSecret("s3cr3t-value-42").split(":");
    for (const length of [4, 8, 12, 15]) {
      const short = Buffer.from(tag, "base64").subarray(0, length).toString("base64");
      expect(() => box.openSecret([version, iv, short, ciphertext].join(":")), `${length}-byte tag`).toThrow();
    }
  });
});

describe("the key from GATEHOUSE_SECRET_KEY", () => {
  it("as base64: values are sealed with exactly that key, and no key file is made", async () => {
    const key = randomBytes(32);
    const dataDir = tempDir();
    const box = await freshBox({ key: key.toString("base64"), dataDir });
    const sealed = box.sealSecret("from-a-base64-key");
    expect(openWith(key, sealed)).toBe("from-a-base64-key");
    expect(fs.existsSync(path.join(dataDir, "secret.key"))).toBe(false);
  });

  it("as 64 hex digits (either case, surrounding whitespace ignored): values are sealed with \
exactly that key", async () => {
    const key = randomBytes(32);
    for (const text of [key.toString("hex"), key.toString("hex").toUpperCase(), `  ${key.toString("hex")}\n`]) {
      const box = await freshBox({ key: text });
      expect(openWith(key, box.sealSecret("from-a-hex-key"))).toBe("from-a-hex-key");
    }
  });

  it("takes precedence over an existing key file", async () => {
    const dataDir = tempDir();
    const fileKey = randomBytes(32);
    fs.writeFileSync(path.join(dataDir, "secret.key"), fileKey.toString("base64"), { mode: 0o600 });
    const envKey = randomBytes(32);
    const box = await freshBox({ key: envKey.toString("base64"), dataDir });
    const sealed = box.sealSecret("env-wins");
    expect(openWith(envKey, sealed)).toBe("env-wins");
    expect(() => openWith(fileKey, sealed)).toThrow();
  });

  it("of the wrong length is refused with a clear error that does not echo the key", async () => {
    const wrong = [
      "too-short",
      randomBytes(31).toString("base64"),
      randomBytes(33).toString("base64"),
      randomBytes(16).toString("hex"),
      randomBytes(32).toString("hex").slice(0, 63),
      "not base64 at all, just a passphrase!",
    ];
    for (const text of wrong) {
      const box = await freshBox({ key: text });
      let message = "";
      try {
        box.sealSecret("s3cr3t-value-42");
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, JSON.stringify(text)).toMatch(/GATEHOUSE_SECRET_KEY must be 32 bytes/);
      expect(message).toMatch(/base64/);
      expect(message).toMatch(/hex/);
      expect(message).not.toContain(text);
      expect(() => box.openSecret("v1:AAAA:AAAA:AAAA")).toThrow(/GATEHOUSE_SECRET_KEY must be 32 bytes/);
    }
  });
});

describe("the key file in the data dir (GATEHOUSE_SECRET_KEY unset)", () => {
  it("is created on first use as <data dir>/secret.key with mode 0600 (whatever the umask), holding \
32 random bytes", async () => {
    const dataDir = path.join(tempDir(), "not", "yet", "made");
    const oldUmask = process.umask(0);
    try {
      const box = await freshBox({ dataDir });
      const file = path.join(dataDir, "secret.key");
      expect(fs.existsSync(file)).toBe(false);
      const sealed = box.sealSecret("from-the-key-file");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
      expect(key).toHaveLength(32);
      expect(openWith(key, sealed)).toBe("from-the-key-file");
    } finally {
      process.umask(oldUmask);
    }
  });

  it("is made once and reused: a restarted server (fresh module) opens what was sealed before", async () => {
    const dataDir = tempDir();
    const first = await freshBox({ dataDir });
    const sealed = first.sealSecret("survives-a-restart");
    const file = path.join(dataDir, "secret.key");
    const before = fs.readFileSync(file, "utf8");
    first.sealSecret("again");
    const second = await freshBox({ dataDir });
    expect(second.openSecret(sealed)).toBe("survives-a-restart");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("each data dir has its own key: another data dir cannot open the secret", async () => {
    const a = await freshBox({ dataDir: tempDir() });
    const sealed = a.sealSecret("only-in-dir-a");
    const b = await freshBox({ dataDir: tempDir() });
    expect(() => b.openSecret(sealed)).toThrow();
  });

  it("a key file that does not hold a 32-byte key is refused, naming the file", async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, "secret.key");
    fs.writeFileSync(file, "garbage\n", { mode: 0o600 });
    const box = await freshBox({ dataDir });
    expect(() => box.sealSecret("x-value-1")).toThrow(`${file} does not hold a 32-byte key`);
  });

  it("switching from the env key to the key file (GATEHOUSE_SECRET_KEY removed) uses the file's key", async () => {
    const dataDir = tempDir();
    const envKey = randomBytes(32);
    const box = await freshBox({ key: envKey.toString("base64"), dataDir });
    expect(openWith(envKey, box.sealSecret("with-env"))).toBe("with-env");
    delete process.env.GATEHOUSE_SECRET_KEY;
    const sealed = box.sealSecret("with-file");
    const fileKey = Buffer.from(fs.readFileSync(path.join(dataDir, "secret.key"), "utf8").trim(), "base64");
    expect(openWith(fileKey, sealed)).toBe("with-file");
  });
});
