"use client";
// The Work's webhooks: where each run's events are POSTed, which events, and the secret that signs them
// (write-only: a set secret shows as set, and a blank field keeps it). A saved webhook shows its delivery log.
import { MAX_WEBHOOKS, WEBHOOK_EVENTS } from "@/lib/gates/webhooks";
import type { WebhookForm, WorkForm } from "@/lib/editors/work-form";
import { inputBorderClass } from "../ui/action-form";
import { Button } from "../ui/button";
import { editorInputClass, FieldError } from "./field-parts";
import { WebhookDeliveryLog } from "./webhook-delivery-log";

type Props = {
  workId: string;
  form: WorkForm;
  onChange: (patch: Partial<WorkForm>) => void;
  errors: Map<string, string>;
};

const input = `${editorInputClass} ${inputBorderClass} aria-[invalid=true]:border-rose-500`;
const ROW = "space-y-3 rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900";
const EVENT_EXPLAINED: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  "run.started": "a run's first attempt starts",
  "run.ended": "a run ends (any ending)",
  "decision.needed": "a partial run waits for a lead's decision",
};

let counter = 0;
const newKey = () => `new-webhook-${++counter}`;

function WebhookRow(props: {
  workId: string;
  hook: WebhookForm;
  index: number;
  errors: Map<string, string>;
  onChange: (patch: Partial<WebhookForm>) => void;
  onRemove: () => void;
}) {
  const { hook, index, errors } = props;
  const at = (field: string) => errors.get(`webhooks.${index}.${field}`);
  const eventsError = at("events") ?? [...errors].find(([p]) => p.startsWith(`webhooks.${index}.events.`))?.[1];
  const name = `Webhook ${index + 1}`;
  const toggle = (event: string, on: boolean) =>
    props.onChange({
      events: on
        ? WEBHOOK_EVENTS.filter((e) => e === event || hook.events.includes(e))
        : hook.events.filter((e) => e !== event),
    });
  return (
    <li aria-label={`${name}: ${hook.url || "new"}`} className={ROW}>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start">
        <div className="min-w-0">
          <label htmlFor={`${hook.key}-url`} className="mb-1 block text-sm font-semibold">
            {name} URL
          </label>
          <input
            id={`${hook.key}-url`}
            value={hook.url}
            placeholder="https://ci.example.com/gatehouse-hook"
            spellCheck={false}
            aria-invalid={!!at("url")}
            aria-describedby={at("url") ? `${hook.key}-url-error` : undefined}
            onChange={(e) => props.onChange({ url: e.target.value })}
            className={`${input} font-mono`}
          />
          <FieldError id={`${hook.key}-url-error`} label="URL" error={at("url") ?? errors.get(`webhooks.${index}`)} />
        </div>
        <div className="sm:pt-6">
          <Button size="sm" variant="danger" aria-label={`Remove webhook ${index + 1}`} onClick={props.onRemove}>
            Remove
          </Button>
        </div>
      </div>
      <fieldset>
        <legend className="mb-1 text-sm font-semibold">{name} events</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-1">
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} className="flex items-center gap-2 text-sm" title={EVENT_EXPLAINED[event]}>
              <input
                type="checkbox"
                checked={hook.events.includes(event)}
                onChange={(e) => toggle(event, e.target.checked)}
              />
              <code className="font-mono">{event}</code>
            </label>
          ))}
        </div>
        <FieldError id={`${hook.key}-events-error`} label="Events" error={eventsError} />
      </fieldset>
      <div className="max-w-md">
        <label htmlFor={`${hook.key}-secret`} className="mb-1 block text-sm font-semibold">
          {name} secret
        </label>
        <input
          id={`${hook.key}-secret`}
          type="password"
          autoComplete="new-password"
          value={hook.secret}
          placeholder={hook.secretSet ? "set — leave blank to keep it" : "at least 8 characters"}
          aria-invalid={!!at("secret")}
          aria-describedby={`${hook.key}-secret-hint`}
          onChange={(e) => props.onChange({ secret: e.target.value })}
          className={input}
        />
        <p id={`${hook.key}-secret-hint`} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          {hook.secretSet
            ? "A secret is set. It is never shown again; type a new one to replace it."
            : "Signs every delivery (X-Gatehouse-Signature-256). It is never shown again once saved."}
        </p>
        <FieldError id={`${hook.key}-secret-error`} label="Secret" error={at("secret")} />
      </div>
      {hook.id ? <WebhookDeliveryLog workId={props.workId} webhookId={hook.id} label={name} /> : null}
    </li>
  );
}

export function WebhooksFields({ workId, form, onChange, errors }: Props) {
  const hooks = form.webhooks;
  const setHooks = (webhooks: WebhookForm[]) => onChange({ webhooks });
  return (
    <div className="space-y-3">
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        Each delivery is a JSON POST signed with the webhook&apos;s secret, tried again up to 3 times with a growing
        wait when the receiver fails or takes longer than 10 s. At most {MAX_WEBHOOKS}.
      </p>
      <FieldError id="webhooks-error" label="Webhooks" error={errors.get("webhooks")} />
      {hooks.length > 0 ? (
        <ul aria-label="Webhooks" className="space-y-3">
          {hooks.map((hook, i) => (
            <WebhookRow
              key={hook.key}
              workId={workId}
              hook={hook}
              index={i}
              errors={errors}
              onChange={(patch) => setHooks(hooks.map((x, j) => (j === i ? { ...x, ...patch } : x)))}
              onRemove={() => setHooks(hooks.filter((_, j) => j !== i))}
            />
          ))}
        </ul>
      ) : null}
      <Button
        size="sm"
        variant="secondary"
        disabled={hooks.length >= MAX_WEBHOOKS}
        onClick={() =>
          setHooks([
            ...hooks,
            { key: newKey(), id: null, url: "", events: ["run.ended"], secret: "", secretSet: false },
          ])
        }
      >
        + Add a webhook
      </Button>
    </div>
  );
}
