// Bundles the `gatehouse` command (lib/cli/main.ts and what it imports from lib/) into one ES module,
// so each invocation starts in a fraction of the time tsx takes to load and transform the TypeScript
// (a Stop hook runs it at every stop of the agent). The packages it uses are bundled too (zod, yaml,
// commander, picomatch): loaded from node_modules file by file they were a third of each start (0.19–0.23 s
// against 0.13–0.16 s bundled, `gatehouse --version` on the 2-core machine); the MCP SDK alone stays an
// import, loaded only by `gatehouse mcp`. The bundle records its sources (package-lock.json standing for the
// packages): scripts/gatehouse.mjs uses it only while none is newer, else it runs the sources through tsx —
// an edited checkout never runs a stale CLI.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const bundleDir = path.join(root, "lib", "cli", "dist");

// lib/cli/main.ts bundled into `outfile`; `bundlePackages: false` leaves the packages as imports from
// node_modules (what `npm run bench -- cli` compares the bundle with). Answers esbuild's metafile.
export async function bundleCli(outfile, { bundlePackages = true } = {}) {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [path.join(root, "lib", "cli", "main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    ...(bundlePackages
      ? {
          external: ["@modelcontextprotocol/sdk", "@modelcontextprotocol/sdk/*"],
          // The CommonJS packages inside an ES module bundle call require() for Node's own modules.
          banner: {
            js: 'import { createRequire as gatehouseRequire } from "node:module";\nconst require = gatehouseRequire(import.meta.url);',
          },
        }
      : { packages: "external" }),
    tsconfig: path.join(root, "tsconfig.json"),
    metafile: true,
    logLevel: "warning",
  });
  return result.metafile;
}

export async function buildCli({ quiet = false } = {}) {
  fs.mkdirSync(bundleDir, { recursive: true });
  const outfile = path.join(bundleDir, "gatehouse.mjs");
  const metafile = await bundleCli(`${outfile}.tmp`);
  const inputs = [
    ...Object.keys(metafile.inputs)
      .filter((p) => !p.includes("node_modules/"))
      .map((p) => path.resolve(root, p)),
    path.join(root, "package-lock.json"),
  ];
  fs.writeFileSync(path.join(bundleDir, "inputs.json"), JSON.stringify(inputs));
  fs.renameSync(`${outfile}.tmp`, outfile);
  if (!quiet) console.log(`gatehouse: bundled the gatehouse CLI (${inputs.length} source files)`);
}

// No top-level await: the bench imports this module through tsx, which cannot load one that has it.
if (process.argv[1] === fileURLToPath(import.meta.url)) void buildCli();
