import { expect, test } from "./support/test";

// Files a browser or crawler fetches before anyone signs in: served to everyone, with their real types.
test.use({ storageState: { cookies: [], origins: [] } });

test("robots.txt, the web manifest and its icons answer 200 without sign-in, with the right content type", async ({
  playwright,
  baseURL,
}) => {
  const signedOut = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  try {
    const robots = await signedOut.get("/robots.txt", { maxRedirects: 0 });
    expect(robots.status()).toBe(200);
    expect(robots.headers()["content-type"]).toMatch(/^text\/plain/);
    // A self-hosted dashboard stays out of search engines.
    expect(await robots.text()).toMatch(/^User-agent: \*\nDisallow: \/\n/);

    const manifest = await signedOut.get("/manifest.webmanifest", { maxRedirects: 0 });
    expect(manifest.status()).toBe(200);
    expect(manifest.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
    const { name, icons } = (await manifest.json()) as { name: string; icons: { src: string; type: string }[] };
    expect(name).toBe("Gatehouse");
    expect(icons.map((i) => i.src)).toEqual(["/icon.svg", "/icon-192.png", "/icon-512.png"]);

    for (const icon of icons) {
      const res = await signedOut.get(icon.src, { maxRedirects: 0 });
      expect(res.status(), icon.src).toBe(200);
      expect(res.headers()["content-type"], icon.src).toMatch(new RegExp(`^${icon.type.replace("+", "\\+")}`));
    }

    // The sign-in page (what a signed-out visitor gets) links the manifest and the icon.
    const signin = await (await signedOut.get("/signin")).text();
    expect(signin).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    expect(signin).toMatch(/<link rel="icon" href="\/icon.svg"/);
  } finally {
    await signedOut.dispose();
  }
});
