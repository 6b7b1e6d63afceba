// The runner's view of a Work's secrets: decrypted for envPassthrough and for masking output.
import { openSecret } from "../auth/secret-box";
import { listSealedSecrets } from "../db/secrets";

class SecretUnreadableError extends Error {}

export async function loadWorkSecrets(workId: string): Promise<Record<string, string>> {
  const sealed = await listSealedSecrets({ workId });
  return Object.fromEntries(
    sealed.map((s) => {
      try {
        return [s.name, openSecret(s.ciphertext)];
      } catch {
        throw new SecretUnreadableError(
          `the secret ${s.name} cannot be decrypted (did GATEHOUSE_SECRET_KEY or the data dir's ` +
            `secret.key change?); set it again`,
        );
      }
    }),
  );
}
