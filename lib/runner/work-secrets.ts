// The runner's view of a Work's secrets: decrypted for envPassthrough and for masking output.
import { openSecret } from "../auth/secret-box";
import { listSealedSecrets } from "../db/secrets";

export async function loadWorkSecrets(workId: string): Promise<Record<string, string>> {
  const sealed = await listSealedSecrets({ workId });
  return Object.fromEntries(sealed.map((s) => [s.name, openSecret(s.ciphertext)]));
}
