// Work assets (SPEC Part 2): files a lead uploads, copied read-only into each run as {{assets_dir}}.
// Names are sanitised to one safe path segment; sizes are capped per file (the API's body limit, so an
// upload is one plain request) and per Work.
export const MAX_ASSET_BYTES = 1024 * 1024;
export const MAX_ASSETS_TOTAL_BYTES = 10 * 1024 * 1024;
const MAX_ASSETS = 50;
const MAX_NAME_LENGTH = 100;

// One path segment of letters, digits, ".", "_" and "-" (anything else becomes "-"), never "." or "..",
// never hidden (a leading dot is dropped), or null when nothing usable is left.
export function sanitiseAssetName(raw: string): string | null {
  const base = raw.split(/[\\/]/).pop() ?? "";
  const name = base
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, MAX_NAME_LENGTH)
    .replace(/[.-]+$/, "");
  return /[A-Za-z0-9]/.test(name) ? name : null;
}

// Why an upload cannot be stored, or null: size per file, the Work's total and number of files.
export function assetUploadProblem(opts: {
  size: number;
  otherSizes: readonly number[];
}): { path: string; message: string } | null {
  if (opts.size === 0) return { path: "body", message: "the file is empty" };
  if (opts.size > MAX_ASSET_BYTES) return { path: "body", message: `at most ${MAX_ASSET_BYTES} bytes (1 MB) per file` };
  if (opts.otherSizes.length >= MAX_ASSETS)
    return { path: "name", message: `a Work holds at most ${MAX_ASSETS} assets` };
  const total = opts.otherSizes.reduce((a, b) => a + b, 0) + opts.size;
  if (total > MAX_ASSETS_TOTAL_BYTES)
    return {
      path: "body",
      message: `the Work's assets would hold ${total} bytes, more than ${MAX_ASSETS_TOTAL_BYTES} (10 MB)`,
    };
  return null;
}
