// Dev tool: Chromium screenshots of pages, signed in (LOGIN=email:password), light/dark, any width.
// PAGES='[["name","/path",width,"light|dark",["selector to click", ...]]]' BASE=http://localhost:3100 OUT=/tmp/shots
import { chromium } from "@playwright/test";
import fs from "node:fs";
const base = process.env.BASE || "http://localhost:3100";
const out = process.env.OUT || "/tmp/shots";
fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.E2E_CHROMIUM || "/usr/bin/chromium-headless-shell",
  args: [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
let storageState;
if (process.env.LOGIN) {
  const [email, password] = process.env.LOGIN.split(":");
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${base}/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByLabel(/^Account: /).waitFor();
  storageState = await ctx.storageState();
  await ctx.close();
}
for (const [name, path, width, scheme, clicks] of JSON.parse(process.env.PAGES)) {
  const ctx = await browser.newContext({
    viewport: { width, height: 900 },
    colorScheme: scheme || "light",
    storageState,
  });
  const page = await ctx.newPage();
  const started = Date.now();
  await page.goto(base + path, { waitUntil: "networkidle" });
  const loaded = Date.now() - started;
  for (const sel of clicks || []) await page.locator(sel).first().click();
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: process.env.FULL !== "0" });
  console.log(`${name}: ${loaded} ms to network idle`);
  await ctx.close();
}
await browser.close();
