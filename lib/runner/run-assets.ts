// The Work's assets, copied for one attempt into the data dir as {{assets_dir}}: the server owns them, the
// files are 0444 and their directory 0555, so a check (run as GATEHOUSE_RUN_AS) reads them and cannot change
// them. A check running as root could; the copy is the attempt's own and removed when the attempt ends, so
// nothing it does reaches another attempt or the stored asset.
import fs from "node:fs";
import path from "node:path";
import { listAssetContents } from "../db/assets";
import { sanitiseAssetName } from "../gates/assets";
import { writeCheckoutFile } from "./checkout/checkout-files";
import { attemptFilesDirOf } from "./paths";

// The attempt's assets directory, or null when the Work has no assets.
export async function copyAssetsForAttempt(opts: {
  dataDir: string;
  workId: string;
  runId: string;
  n: number;
}): Promise<string | null> {
  const assets = await listAssetContents({ workId: opts.workId });
  if (assets.length === 0) return null;
  const base = attemptFilesDirOf(opts.dataDir, opts.runId, opts.n);
  for (const dir of [path.dirname(path.dirname(base)), path.dirname(base), base]) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o711 });
    fs.chmodSync(dir, 0o711);
  }
  const dir = path.join(base, "assets");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { mode: 0o755 });
  for (const asset of assets) {
    // Stored names were sanitised on upload; sanitised again, a name can never be a path.
    const name = sanitiseAssetName(asset.name);
    if (!name) continue;
    const written = writeCheckoutFile(dir, name, asset.content, { mode: 0o444, exclusive: true });
    if (written.kind === "refused") throw new Error(`asset ${name}: ${written.reason}`);
  }
  fs.chmodSync(dir, 0o555);
  return dir;
}

// Removed on libuv's threads, not the event loop's: an attempt leaves a few dozen files (logs, homes, the
// verified store), each a metadata write to remove, and a worker's other runs (or the server's pages) wait
// for the event loop meanwhile.
export async function removeAttemptFiles(dataDir: string, runId: string, n: number): Promise<void> {
  const base = attemptFilesDirOf(dataDir, runId, n);
  const dir = path.join(base, "assets");
  if (fs.existsSync(dir)) fs.chmodSync(dir, 0o755);
  await fs.promises.rm(base, { recursive: true, force: true });
}
