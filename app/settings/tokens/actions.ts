"use server";
import { revalidatePath } from "next/cache";
import { idArg, runAction, runRowAction, type ActionResult } from "@/lib/actions/safe-action";
import { createTokenForActor, revokeTokenOfActor } from "@/lib/services/auth";

export async function createTokenAction(
  _state: unknown,
  form: FormData,
): Promise<ActionResult<{ token: string; name: string }>> {
  return runAction(async (actor) => {
    const { token, record } = await createTokenForActor(actor, { name: String(form.get("name") ?? "") });
    revalidatePath("/settings/tokens");
    return { token, name: record.name };
  });
}

// Bound to the token; a refusal comes back to the row (components/ui/row-action-form).
export async function revokeTokenAction(tokenId: string): Promise<ActionResult<null>> {
  return runRowAction((actor) => revokeTokenOfActor(actor, idArg(tokenId, "tokenId")), "/settings/tokens");
}
