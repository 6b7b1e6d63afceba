import { chromium } from "@playwright/test";
const base = process.env.BASE || "http://localhost:3100";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
const out = process.env.OUT || "/tmp/shots";
const pages = JSON.parse(process.env.PAGES);
for (const [name, path, width, scheme, clicks] of pages) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme || "light", deviceScaleFactor: 1 });
  const page = await ctx.newPage();
  await page.goto(base + path, { waitUntil: "networkidle" });
  for (const sel of clicks || []) await page.locator(sel).first().click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
  await ctx.close();
}
await browser.close();
