// A Work's webhooks (issue 25): where Gatehouse POSTs a signed JSON message when one of its runs starts,
// ends, or needs a person's decision. The secret is write-only: the API and the pages show only that one is
// set (`secretSet`), and a save that leaves it out (null) keeps the webhook's current one (matched by `id`).
import { z } from "zod";

export const WEBHOOK_EVENTS = ["run.started", "run.ended", "decision.needed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const MAX_WEBHOOKS = 10;
const MIN_SECRET = 8;

const ZWebhookUrl = z
  .string({ error: "must be text (an http:// or https:// URL)" })
  .trim()
  .min(1, "required: an http:// or https:// URL")
  .max(2000, "at most 2000 characters")
  .superRefine((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: "custom", message: "not a URL: use http://host/path or https://host/path" });
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      ctx.addIssue({ code: "custom", message: `must be an http:// or https:// URL, not ${url.protocol}` });
    else if (url.username || url.password)
      ctx.addIssue({ code: "custom", message: "must not carry a user name or password (the secret signs)" });
  });

const ZWebhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `not an event: use ${WEBHOOK_EVENTS.join(", ")}` }), {
    error: `must be a list of events (${WEBHOOK_EVENTS.join(", ")})`,
  })
  .min(1, `at least one event: ${WEBHOOK_EVENTS.join(", ")}`)
  .refine((events) => new Set(events).size === events.length, "an event is listed twice");

// The secret as typed (it signs every delivery); null or left out: keep the webhook's current secret.
const ZWebhookSecret = z
  .string({ error: "must be text" })
  .min(MIN_SECRET, `at least ${MIN_SECRET} characters`)
  .max(256, "at most 256 characters")
  .refine((v) => !/[\0\n\r]/.test(v), "must not contain NUL or line breaks");

const ZWebhookId = z
  .string({ error: "must be text" })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "not a webhook id (letters, digits, '_' and '-', as the API gave it)");

const ZWebhook = z.strictObject(
  {
    // Given by the server to a new webhook; sent back with a change, it keeps that webhook's secret and log.
    id: ZWebhookId.optional(),
    url: ZWebhookUrl,
    events: ZWebhookEvents,
    secret: ZWebhookSecret.nullable().default(null),
    // What the API shows instead of the secret; accepted (and ignored) so a GET's value can be sent back.
    secretSet: z.boolean({ error: "must be true or false" }).optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown field: ${(issue.keys ?? []).join(", ")}`
        : "must be an object {url, events, secret}",
  },
);
export type Webhook = z.output<typeof ZWebhook>;

export const ZWebhookList = z
  .array(ZWebhook, { error: "must be a list of {url, events, secret}" })
  .max(MAX_WEBHOOKS, `at most ${MAX_WEBHOOKS} webhooks`)
  .superRefine((hooks, ctx) => {
    const seen = new Map<string, number>();
    hooks.forEach((h, i) => {
      if (!h?.id) return;
      const first = seen.get(h.id);
      if (first !== undefined)
        ctx.addIssue({ code: "custom", path: [i, "id"], message: `the same id as webhooks.${first}` });
      else seen.set(h.id, i);
    });
  });

// A webhook as anyone may see it: the secret replaced by whether one is set.
export function hideWebhookSecrets(hooks: readonly Webhook[]): Webhook[] {
  return hooks.map(({ secret, secretSet, ...rest }) => ({ ...rest, secret: null, secretSet: secretSet ?? !!secret }));
}

export type SealedWebhook = { id: string; url: string; events: WebhookEvent[]; secret: string };
type Issue = { path: string; message: string };

// The webhooks to store: each new secret sealed, each left-out secret kept from the stored webhook of the same
// id; a new webhook without a secret is refused. `newId` and `seal` are the server's (crypto).
export function resolveWebhookSecrets(
  next: readonly Webhook[],
  stored: readonly { id: string; secret: string | null }[],
  tools: { newId: () => string; seal: (secret: string) => string },
): { hooks: SealedWebhook[] } | { issues: Issue[] } {
  const issues: Issue[] = [];
  const hooks = next.map((h, i) => {
    const kept = h.id ? stored.find((s) => s.id === h.id)?.secret : undefined;
    const secret = h.secret ? tools.seal(h.secret) : kept;
    if (!secret)
      issues.push({
        path: `webhooks.${i}.secret`,
        message: "required for a new webhook: at least 8 characters (it signs every delivery)",
      });
    return { id: h.id ?? tools.newId(), url: h.url, events: h.events, secret: secret ?? "" };
  });
  return issues.length > 0 ? { issues } : { hooks };
}
