// Run before every test file (vitest.config.mts `setupFiles`): passwords are hashed at scrypt cost 2^10
// instead of the default 2^15. Tests make people by the dozen, and each one hashes its password twice (made,
// then signed in for its token) — 0.29 CPU-s a hash at the default cost on the 2-core machine. Every
// sign-in still hashes for real, the hash still records its cost and is verified at it, and an unknown email
// still burns a hash check like a known one. lib/auth/passwords.test.ts unmocks it and covers the default.
import { vi } from "vitest";

vi.mock("@/lib/auth/passwords", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/auth/passwords")>();
  const CHEAP = 2 ** 10;
  let dummy: Promise<string> | null = null;
  return {
    ...real,
    hashPassword: (password: string) => real.hashPassword(password, CHEAP),
    burnPasswordCheck: async (password: string) => {
      dummy ??= real.hashPassword("gatehouse-timing-equaliser", CHEAP);
      await real.verifyPassword(password, await dummy);
    },
  };
});
