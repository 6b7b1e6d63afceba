// The webhook rules as plain data: a save's secrets (sealed when new, kept by id when left out, required for a
// new webhook), what anyone is shown (never the secret), the retry schedule, the payload (checks by name and
// verdict only), and gates files, which never carry webhooks either way.
import { describe, expect, it } from "vitest";
import { parseGatesFile } from "./gates-file";
import { toGatesYaml } from "./gates-file/yaml";
import { buildWebhookPayload, retryDelayMs, WEBHOOK_MAX_ATTEMPTS, type PayloadFacts } from "./webhook-payload";
import { hideWebhookSecrets, resolveWebhookSecrets, type Webhook } from "./webhooks";

const tools = { newId: () => "new-id", seal: (s: string) => `sealed(${s})` };
const hook = (extra: Partial<Webhook> = {}): Webhook => ({
  url: "https://ci.example.test/hook",
  events: ["run.ended"],
  secret: null,
  ...extra,
});

describe("resolveWebhookSecrets", () => {
  it.each([
    [
      "a new secret is sealed, a new webhook gets an id",
      [hook({ secret: "s3cret-value" })],
      [],
      [["new-id", "sealed(s3cret-value)"]],
    ],
    [
      "left out, the secret of the same id is kept",
      [hook({ id: "a" })],
      [{ id: "a", secret: "sealed(old)" }],
      [["a", "sealed(old)"]],
    ],
    [
      "given, it replaces the kept one",
      [hook({ id: "a", secret: "another-one" })],
      [{ id: "a", secret: "sealed(old)" }],
      [["a", "sealed(another-one)"]],
    ],
  ])("%s", (_what, next, stored, expected) => {
    const resolved = resolveWebhookSecrets(next, stored, tools);
    expect("hooks" in resolved && resolved.hooks.map((h) => [h.id, h.secret])).toEqual(expected);
  });

  it("refuses a new webhook without a secret, naming its path (an id of no stored webhook is new)", () => {
    expect(resolveWebhookSecrets([hook({ id: "a" }), hook({ id: "gone" })], [{ id: "a", secret: "x" }], tools)).toEqual(
      {
        issues: [
          {
            path: "webhooks.1.secret",
            message: "required for a new webhook: at least 8 characters (it signs every delivery)",
          },
        ],
      },
    );
  });
});

it("shows a webhook without its secret: secretSet says whether one is set", () => {
  expect(hideWebhookSecrets([{ id: "a", url: "https://x.test/h", events: ["run.started"], secret: "sealed" }])).toEqual(
    [{ id: "a", url: "https://x.test/h", events: ["run.started"], secret: null, secretSet: true }],
  );
});

it("retries 3 times after the first try, each wait 4 times the one before", () => {
  expect(WEBHOOK_MAX_ATTEMPTS).toBe(4);
  expect([1, 2, 3].map((n) => retryDelayMs(n))).toEqual([2_000, 8_000, 32_000]);
});

// A payload's facts: a run of PAY-3 that ended partial, with `run` fields replaced.
const factsOf = (run: Partial<PayloadFacts["run"]> = {}): PayloadFacts => ({
  event: "decision.needed",
  occurredAt: new Date("2026-12-01T12:00:00Z"),
  publicUrl: "https://gate.example.test",
  work: { id: "w1", name: "Payments" },
  task: { id: "t1", key: "PAY-3", title: "Round refunds" },
  run: {
    id: "r1",
    number: 2,
    status: "finished",
    gate: "red",
    ending: "partial",
    endingReason: "3 attempts used",
    agentCaveat: null,
    needsDecision: true,
    maxAttempts: 3,
    bestAttempt: 2,
    ...run,
  },
  attempt: null,
  checks: [],
});

it("the payload: the run's link at the public URL, attempt n of m, checks by id, name and verdict only", () => {
  const payload = buildWebhookPayload({
    ...factsOf(),
    attempt: { n: 3, gate: "red", commit: "abc" },
    checks: [{ checkId: "hidden", name: "Held out", verdict: "failed", required: true, command: "secret" } as never],
  });
  expect(payload.run).toMatchObject({ url: "https://gate.example.test/runs/r1", attempt: { n: 3, of: 3 } });
  expect(payload.checks).toEqual([{ id: "hidden", name: "Held out", verdict: "failed", required: true }]);
  expect(payload.run.cancelledBy).toBeNull();
});

it("a cancelled run's payload names who cancelled it; a rejection that was no cancel names nobody", () => {
  const payloadOf = (ending: string, endingReason: string) =>
    buildWebhookPayload({ ...factsOf({ ending, endingReason, needsDecision: false }), event: "run.ended" }).run
      .cancelledBy;
  expect(payloadOf("rejected", "cancelled by ci-bot (API token)")).toBe("ci-bot (API token)");
  expect(payloadOf("rejected", "rejected by lead@example.com: not what we asked for")).toBeNull();
  expect(payloadOf("inconclusive", "cancelled by nobody")).toBeNull();
});

it("an accepted run whose agent failed says so in the payload, as a caveat a receiver can branch on", () => {
  const caveatOf = (agentCaveat: string | null) =>
    buildWebhookPayload({ ...factsOf({ ending: "accepted", agentCaveat }), event: "run.ended" }).run.agentCaveat;
  expect(caveatOf("agent-failed-no-change")).toBe("agent-failed-no-change");
  expect(caveatOf("agent-failed")).toBe("agent-failed");
  expect(caveatOf(null)).toBeNull();
  expect(caveatOf("something else")).toBeNull();
});

it("gates files never carry webhooks: not exported, and a webhooks key in one is not taken", () => {
  expect(toGatesYaml([], {})).not.toContain("webhooks");
  const read = parseGatesFile("gates:\n  - run: npm test\nwebhooks:\n  - url: https://x.test/h\n");
  expect(JSON.stringify(read)).not.toContain("https://x.test/h");
});
