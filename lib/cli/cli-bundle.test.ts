// The CLI's bundle (scripts/build-cli.mjs) runs only while it is as new as every source it was built
// from: an edited checkout falls back to the sources, never to a stale CLI.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../testing/scratch";
// @ts-expect-error a plain ES module of the install scripts, without types
import { freshBundle } from "../../scripts/cli-bundle.mjs";

function bundleWith(sources: string[], builtAt: Date): string {
  const dist = scratchDir("gatehouse-cli-dist-");
  fs.writeFileSync(path.join(dist, "gatehouse.mjs"), "export const main = () => {};\n");
  fs.writeFileSync(path.join(dist, "inputs.json"), JSON.stringify(sources));
  fs.utimesSync(path.join(dist, "gatehouse.mjs"), builtAt, builtAt);
  return dist;
}

describe("freshBundle", () => {
  const source = path.join(scratchDir("gatehouse-cli-src-"), "main.ts");
  fs.writeFileSync(source, "export {};\n");
  const sourceTime = fs.statSync(source).mtime;

  it("runs the bundle when no source is newer than it", () => {
    const dist = bundleWith([source], new Date(sourceTime.getTime() + 1000));
    expect(freshBundle(dist)).toBe(path.join(dist, "gatehouse.mjs"));
  });

  it("falls back to the sources when one was edited after the build", () => {
    expect(freshBundle(bundleWith([source], new Date(sourceTime.getTime() - 1000)))).toBeNull();
  });

  it("falls back when a source it was built from is gone, or there is no bundle", () => {
    expect(freshBundle(bundleWith([`${source}.gone`], new Date(sourceTime.getTime() + 1000)))).toBeNull();
    expect(freshBundle(scratchDir("gatehouse-cli-none-"))).toBeNull();
  });
});
