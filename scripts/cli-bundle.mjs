// Whether the CLI bundle in `dist` (scripts/build-cli.mjs) may run: it exists and none of the sources it
// was built from is newer (or gone). Its path, or null: then the sources run through tsx.
import fs from "node:fs";
import path from "node:path";

export function freshBundle(dist) {
  try {
    const bundle = path.join(dist, "gatehouse.mjs");
    const built = fs.statSync(bundle).mtimeMs;
    const inputs = JSON.parse(fs.readFileSync(path.join(dist, "inputs.json"), "utf8"));
    return inputs.every((file) => fs.statSync(file).mtimeMs <= built) ? bundle : null;
  } catch {
    return null;
  }
}
