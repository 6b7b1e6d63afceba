// Bundles the `gatehouse` command (lib/cli/main.ts and what it imports from lib/) into one ES module,
// so each invocation starts in a fraction of the time tsx takes to load and transform the TypeScript
// (a Stop hook runs it at every stop of the agent). Packages stay imports from node_modules. The bundle
// records its inputs: scripts/gatehouse.mjs uses it only while no input is newer, else it runs the
// sources through tsx — an edited checkout never runs a stale CLI.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const bundleDir = path.join(root, "lib", "cli", "dist");

export async function buildCli({ quiet = false } = {}) {
  const { build } = await import("esbuild");
  fs.mkdirSync(bundleDir, { recursive: true });
  const outfile = path.join(bundleDir, "gatehouse.mjs");
  const result = await build({
    entryPoints: [path.join(root, "lib", "cli", "main.ts")],
    outfile: `${outfile}.tmp`,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    metafile: true,
    logLevel: "warning",
  });
  const inputs = Object.keys(result.metafile.inputs).map((p) => path.resolve(root, p));
  fs.writeFileSync(path.join(bundleDir, "inputs.json"), JSON.stringify(inputs));
  fs.renameSync(`${outfile}.tmp`, outfile);
  if (!quiet) console.log(`gatehouse: bundled the gatehouse CLI (${inputs.length} source files)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();
