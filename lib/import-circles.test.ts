// No two modules of lib/ import each other, directly or round a circle (value imports: `import type` is
// erased at build time). A circle is how the attempt's steps once came to import their runner back; the
// pipeline (lib/runner/attempt) keeps them apart, and this keeps it so.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const IMPORT = /^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+["']([^"']+)["']/gm;

function sourcesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "generated" && entry.name !== "node_modules") found.push(...sourcesUnder(rel));
    } else if (/\.tsx?$/.test(entry.name) && !/\.(test|pg-test|spec)\.tsx?$/.test(entry.name)) found.push(rel);
  }
  return found;
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | null => {
    const base = spec.startsWith("@/")
      ? spec.slice(2)
      : spec.startsWith(".")
        ? path.posix.normalize(path.posix.join(path.posix.dirname(from), spec))
        : null;
    if (!base) return null;
    return ["", ".ts", ".tsx", "/index.ts"].map((ext) => base + ext).find((p) => known.has(p)) ?? null;
  };
  return new Map(
    files.map((f) => [
      f,
      [...fs.readFileSync(path.join(ROOT, f), "utf8").matchAll(IMPORT)]
        .map((m) => resolve(f, m[1]))
        .filter((p): p is string => p !== null),
    ]),
  );
}

// The strongly connected components of more than one module (Tarjan's algorithm).
function circlesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      circle.push(w);
    } while (w !== v);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

describe("imports in lib/", () => {
  it("finds a circle when there is one", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(circlesOf(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("form no circle", () => {
    const graph = importGraph(sourcesUnder("lib"));
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get("lib/runner/attempt/pipeline.ts")).toContain("lib/runner/attempt/steps/checks.ts");
    expect(circlesOf(graph)).toEqual([]);
  });
});
