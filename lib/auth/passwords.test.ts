// Password hashes as stored: scrypt at the default cost (2^15, 32 MB), a fresh salt each time, verified at
// the cost recorded in the hash, so a cheaper hash (the throttle tests' own) still verifies as itself.
import { describe, expect, it, vi } from "vitest";
import { burnPasswordCheck, hashPassword, UNUSABLE_PASSWORD, verifyPassword } from "./passwords";

// Every other test file hashes at a cheaper cost (lib/testing/cheap-passwords.setup.ts): this one, the default.
vi.unmock("@/lib/auth/passwords");

describe("password hashes", () => {
  it("are scrypt at cost 2^15 with a fresh salt, and verify only the same password", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(stored).not.toContain("correct horse");
    expect(await hashPassword("correct horse battery")).not.toBe(stored);
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false);
  });

  it("verify at the cost they record; the same password in another Unicode form matches", async () => {
    const cheap = await hashPassword("caf\u00e9 latte", 2 ** 10);
    expect(cheap).toMatch(/^scrypt\$1024\$/);
    expect(await verifyPassword("cafe\u0301 latte", cheap)).toBe(true);
    expect(await verifyPassword("cafe latte", cheap)).toBe(false);
  });

  it("an unusable or foreign hash matches nothing; the timing equaliser answers nothing", async () => {
    expect(await verifyPassword("", UNUSABLE_PASSWORD)).toBe(false);
    expect(await verifyPassword("x", "bcrypt$10$abc$def")).toBe(false);
    await expect(burnPasswordCheck("anything")).resolves.toBeUndefined();
  });
});
