// Renders public/icon.svg to the PNG icons the web manifest lists (192 and 512 px), in Debian's Chromium
// (its headless shell).
// Run after changing the SVG: node scripts/dev/icons.mjs
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const root = path.join(import.meta.dirname, "..", "..");
const svg = fs.readFileSync(path.join(root, "public", "icon.svg"), "utf8");
const browser = await chromium.launch({
  executablePath: process.env.E2E_CHROMIUM || "/usr/bin/chromium-headless-shell",
  args: ["--no-sandbox", "--headless"],
});
try {
  for (const size of [192, 512]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const drawing = svg.replace("<svg ", `<svg width="${size}" height="${size}" `);
    await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block}</style>${drawing}`);
    await page.screenshot({ path: path.join(root, "public", `icon-${size}.png`), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
