// Access from configuration: the first admin from GATEHOUSE_ADMIN_EMAIL/PASSWORD (only when no user
// exists), and GATEHOUSE_BOOTSTRAP_TOKEN as an admin API token (for automation) that exists from start-up.
import { hashPassword, UNUSABLE_PASSWORD } from "../auth/passwords";
import { ZEmail, ZNewPassword } from "../auth/schemas";
import { sha256 } from "../auth/tokens";
import { insertAuditEvent } from "../db/audit";
import {
  countUsers,
  findTokenUser,
  findUserByEmail,
  insertToken,
  insertUser,
  restoreToken,
  revokeBootstrapTokensExcept,
} from "../db/users";
import { config, configFrom, type Env } from "../config/config";

import { AUTOMATION_EMAIL } from "../auth/automation";

// `env`: another environment than the server's (tests).
export async function bootstrapAccess(env?: Env): Promise<void> {
  const settings = env ? configFrom(env) : config();
  const email = settings.adminEmail;
  const password = settings.adminPassword;
  if (email && password && (await countUsers()) === 0) {
    const parsedEmail = ZEmail.safeParse(email);
    const parsedPassword = ZNewPassword.safeParse(password);
    if (!parsedEmail.success || !parsedPassword.success) {
      console.error(
        "gatehouse: GATEHOUSE_ADMIN_EMAIL must be an email address and GATEHOUSE_ADMIN_PASSWORD " +
          "at least 10 characters, 5 of them different; no admin was created",
      );
    } else {
      await insertUser({
        data: { email: parsedEmail.data, name: "Admin", passwordHash: await hashPassword(password), isAdmin: true },
      });
      await insertAuditEvent({
        event: {
          actorId: null,
          actorLabel: "Gatehouse",
          via: "system",
          action: "user.create",
          summary: `created the first admin ${parsedEmail.data} from GATEHOUSE_ADMIN_EMAIL`,
        },
      });
      console.log(`gatehouse: created the first admin ${parsedEmail.data}`);
    }
  }
  const token = settings.bootstrapToken;
  if (!token || token.length < 20) {
    // Unset (or unusable): a bootstrap token enabled earlier stops working, so unsetting a leaked one helps.
    await revokeBootstrapTokensExcept({ tokenHash: "" });
    if (token) console.error("gatehouse: GATEHOUSE_BOOTSTRAP_TOKEN must be at least 20 characters; it was not enabled");
    return;
  }
  const tokenHash = sha256(token);
  await revokeBootstrapTokensExcept({ tokenHash });
  const existing = await findTokenUser({ tokenHash });
  if (existing && !existing.token.revokedAt) return;
  // Configured again after a revoke: the configuration wins (it says the token exists).
  if (existing) return restoreToken({ id: existing.token.id });
  let user = await findUserByEmail({ email: AUTOMATION_EMAIL });
  user ??= {
    ...(await insertUser({
      data: {
        email: AUTOMATION_EMAIL,
        name: "Automation (bootstrap token)",
        passwordHash: UNUSABLE_PASSWORD,
        isAdmin: true,
      },
    })),
    passwordHash: UNUSABLE_PASSWORD,
    failedSignins: 0,
    lastFailedAt: null,
  };
  if (!existing)
    await insertToken({
      data: { userId: user.id, name: "GATEHOUSE_BOOTSTRAP_TOKEN", tokenHash, hint: token.slice(-4), isBootstrap: true },
    });
  await insertAuditEvent({
    event: {
      actorId: null,
      actorLabel: "Gatehouse",
      via: "system",
      action: "auth.token-created",
      summary: "enabled the bootstrap API token from GATEHOUSE_BOOTSTRAP_TOKEN",
    },
  });
}
