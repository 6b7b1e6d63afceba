#!/usr/bin/env node
// The `gatehouse` command (package.json bin). Runs the bundle scripts/build-cli.mjs makes at install
// (lib/cli/dist) while none of its sources is newer; otherwise lib/cli/main.ts through tsx, so an edited
// checkout runs what it says. Either way the CLI shares the project's TypeScript (its gates-file parser,
// its run shapes).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freshBundle } from "./cli-bundle.mjs";

const bundle = freshBundle(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "lib", "cli", "dist"));
const { main } = bundle
  ? await import(pathToFileURL(bundle).href)
  : await (await import("tsx/esm/api")).tsImport("../lib/cli/main.ts", import.meta.url);
// The environment is read here, at the entry point, and handed down (lib/ reads no process.env).
await main(process.argv, process.env);
