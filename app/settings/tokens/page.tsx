import type { Metadata } from "next";
import { getPageActor } from "@/lib/auth/page-actor";
import { listTokensOfActor } from "@/lib/services/auth";
import { formatDateTime } from "@/lib/format";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { RowActionForm } from "@/components/ui/row-action-form";
import { EmptyState, PageHeader, rowListClass, Section } from "@/components/ui/page-parts";
import { TimeAgo } from "@/components/ui/time-ago";
import { NewTokenForm } from "@/components/auth/new-token-notice";
import { createTokenAction, revokeTokenAction } from "./actions";

export const metadata: Metadata = { title: "API tokens" };

export default async function TokensPage() {
  const actor = await getPageActor();
  const tokens = await listTokensOfActor(actor);
  return (
    <>
      <PageHeader
        title="API tokens"
        meta="For CLIs, CI and agents: send one as Authorization: Bearer <token>. A token acts with your roles."
      />
      <Section title="New token">
        <NewTokenForm create={createTokenAction} />
      </Section>
      <Section title="Your tokens">
        {tokens.length === 0 ? (
          <EmptyState title="No tokens yet" />
        ) : (
          <ul className={rowListClass} aria-label="Tokens">
            {tokens.map((t) => (
              <li key={t.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
                <div className="min-w-0">
                  <div className="font-medium [overflow-wrap:anywhere]">
                    {t.name} <code className="ml-1 text-xs text-zinc-500 dark:text-zinc-400">…{t.hint}</code>
                  </div>
                  <div className="text-xs text-zinc-500 dark:text-zinc-400">
                    created {formatDateTime(t.createdAt)} ·{" "}
                    {t.lastUsedAt ? (
                      <>
                        last used <TimeAgo date={t.lastUsedAt} />
                      </>
                    ) : (
                      "never used"
                    )}
                    {t.revokedAt ? (
                      <>
                        {" "}
                        · <span className="font-semibold text-rose-600">revoked</span>
                      </>
                    ) : null}
                  </div>
                </div>
                {t.revokedAt ? null : (
                  <RowActionForm action={revokeTokenAction.bind(null, t.id)}>
                    <ConfirmSubmit
                      label="Revoke"
                      what={t.name}
                      question="Anything using it stops working at once; this cannot be undone."
                    />
                  </RowActionForm>
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
