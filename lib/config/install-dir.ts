// Gatehouse's install folder: where `npm start` runs it from (the repository root). Never bound into a sandbox.
import path from "node:path";

export function installDir(): string {
  return path.resolve(/* turbopackIgnore: true */ process.cwd());
}
