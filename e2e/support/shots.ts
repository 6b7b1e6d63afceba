// Screenshots taken for a person to look at (not asserted on): written only when E2E_SHOTS is set, so the
// suite does not pay for them on every run (a full-page screenshot is about 0.3 s of CPU on 2 cores).
// `E2E_SHOTS=1 npm run test:e2e -- e2e/settings-sections.spec.ts` writes them again.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";

const SHOTS_WANTED = Boolean(process.env.E2E_SHOTS);

export async function shotForPeople(page: Page, file: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!SHOTS_WANTED) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, ...options });
}
