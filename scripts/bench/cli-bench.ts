// How long the `gatehouse` command takes to start (a Stop hook runs it at every stop of the agent): its
// bundle (scripts/build-cli.mjs, the packages inside) against a bare `node -e ""`, and against the same
// sources built with the packages left as imports from node_modules, as before session 37.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// @ts-expect-error a plain ES module of the install scripts, without types
import { bundleCli } from "../build-cli.mjs";
import { median, type BenchRow } from "./runner-bench";

function timeOf(args: string[], rounds: number): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, args, { stdio: "ignore" });
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function benchCliStart(rounds: number): Promise<BenchRow[]> {
  const root = process.cwd();
  const bundle = path.join(root, "lib", "cli", "dist", "gatehouse.mjs");
  if (!fs.existsSync(bundle)) throw new Error("no CLI bundle: run `node scripts/build-cli.mjs` first");
  // The same sources with the packages as imports; next to the project, where node_modules resolves.
  fs.mkdirSync(path.join(root, ".bench"), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(root, ".bench", "cli-"));
  const external = path.join(scratch, "gatehouse-external.mjs");
  await bundleCli(external, { bundlePackages: false });
  const runner = (file: string) => {
    const entry = path.join(scratch, `run-${path.basename(file)}`);
    fs.writeFileSync(entry, `const { main } = await import(${JSON.stringify(file)});\nawait main(process.argv, {});\n`);
    return [entry, "--version"];
  };
  try {
    timeOf(runner(bundle), 2);
    const bare = timeOf(["-e", ""], rounds);
    const bundled = timeOf(runner(bundle), rounds);
    const unbundled = timeOf(runner(external), rounds);
    const load = os.loadavg()[0].toFixed(2);
    return [
      {
        name: '`gatehouse --version`: the CLI\'s start vs a bare `node -e ""`',
        subjectMs: bundled,
        baselineMs: bare,
        ratio: bundled / bare,
        extra: `${rounds} rounds each; load average ${load}`,
      },
      {
        name: "the CLI's start: its packages bundled vs imported from node_modules",
        subjectMs: bundled,
        baselineMs: unbundled,
        ratio: bundled / unbundled,
        extra: `the bundle ${(fs.statSync(bundle).size / 1e6).toFixed(1)} MB`,
      },
    ];
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
