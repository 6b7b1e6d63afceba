import { apiRoute } from "@/lib/api/handler";
import { presentAsset } from "@/lib/api/present";
import { readBodyBytes } from "@/lib/api/request-input";
import { listWorkAssets, uploadAsset } from "@/lib/services/assets";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: { assets: (await listWorkAssets(actor, params.id)).map(presentAsset) },
}));

// The file is the raw body; its name is ?name= (sanitised: the answer says what it was stored as).
export const POST = apiRoute<{ id: string }>(async ({ actor, params, request }) => {
  const name = new URL(request.url).searchParams.get("name");
  const { asset, created } = await uploadAsset(actor, params.id, name, await readBodyBytes(request));
  return { status: created ? 201 : 200, json: presentAsset(asset) };
});
