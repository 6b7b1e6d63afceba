#!/usr/bin/env node
// The `gatehouse` command (package.json bin): runs lib/cli/main.ts through tsx, so the CLI shares the
// project's TypeScript (its gates-file parser, its run shapes) without a build step.
import { tsImport } from "tsx/esm/api";

const { main } = await tsImport("../lib/cli/main.ts", import.meta.url);
// The environment is read here, at the entry point, and handed down (lib/ reads no process.env).
await main(process.argv, process.env);
