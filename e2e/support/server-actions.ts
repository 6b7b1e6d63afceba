// Calling a Server Action the way a browser does (POST with its action id), to prove the server refuses
// what the UI hides. Action ids come from the build's server-reference manifest.
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";

type Manifest = { node: Record<string, { filename: string; exportedName: string }> };

function actionId(filename: string, exportedName: string): string {
  const manifest = JSON.parse(
    fs.readFileSync(path.resolve(__dirname, "..", "..", ".next", "server", "server-reference-manifest.json"), "utf8"),
  ) as Manifest;
  const found = Object.entries(manifest.node).find(
    ([, v]) => v.filename === filename && v.exportedName === exportedName,
  );
  if (!found) throw new Error(`no Server Action ${exportedName} in ${filename}`);
  return found[0];
}

// Returns the status and the RSC text of the answer (the action's result is serialised in it).
export async function callServerAction(
  request: APIRequestContext,
  opts: { baseURL: string; page: string; filename: string; exportedName: string; args: unknown[]; origin?: string },
): Promise<{ status: number; text: string }> {
  const response = await request.post(`${opts.baseURL}${opts.page}`, {
    headers: {
      "next-action": actionId(opts.filename, opts.exportedName),
      "content-type": "text/plain;charset=UTF-8",
      accept: "text/x-component",
      origin: opts.origin ?? opts.baseURL,
    },
    data: JSON.stringify(opts.args),
    failOnStatusCode: false,
    maxRedirects: 0,
  });
  return { status: response.status(), text: await response.text() };
}
