// Inputs of accounts, tokens, roles and secrets. Messages name the rule.
import { z } from "zod";
import { BASE_ENV_NAMES, ZEnvName } from "../gates/env-names";
import { refineVisible } from "../gates/visible-text";
import { ROLES } from "./roles";

const strict = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `unknown field: ${(issue.keys ?? []).join(", ")}` : "must be an object";

export const ZEmail = z
  .string({ error: (i) => (i.input === undefined ? "required" : "must be text") })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "must be an email address" }).max(254, "at most 254 characters"));

// Length is the rule (no required classes of character); ten spaces or one key held down are not a password.
// The rule below, as a form says it before anyone gets it wrong.
export const NEW_PASSWORD_RULE = "At least 10 characters, 5 of them different (spaces aside).";
export const ZNewPassword = z
  .string({ error: (i) => (i.input === undefined ? "required" : "must be text") })
  .min(1, { error: "required", abort: true })
  .min(10, { error: "at least 10 characters", abort: true })
  .max(200, "at most 200 characters")
  .refine((p) => new Set(p.replace(/\s/g, "")).size >= 5, "at least 5 different characters besides spaces");

const ZPassword = z
  .string({ error: (i) => (i.input === undefined ? "required" : "must be text") })
  .min(1, "required")
  .max(200, "at most 200 characters");

const ZPersonName = z
  .string({ error: "must be text" })
  .trim()
  .min(1, { error: "required: 1–120 characters", abort: true })
  .max(120, "at most 120 characters")
  .superRefine(refineVisible);
// Also the token form's maxLength.
export const TOKEN_NAME_MAX = 80;
const ZTokenName = z
  .string({ error: (i) => (i.input === undefined ? "required: a name saying what the token is for" : "must be text") })
  .trim()
  .min(1, { error: "required: a name saying what the token is for", abort: true })
  .max(TOKEN_NAME_MAX, `at most ${TOKEN_NAME_MAX} characters`)
  .superRefine(refineVisible);

export const ZSignIn = z.strictObject({ email: ZEmail, password: ZPassword }, { error: strict });
export const ZTokenRequest = z.strictObject(
  { email: ZEmail, password: ZPassword, name: ZTokenName },
  { error: strict },
);
export const ZTokenCreate = z.strictObject({ name: ZTokenName }, { error: strict });
export const ZFirstAdmin = z.strictObject(
  { email: ZEmail, name: ZPersonName, password: ZNewPassword },
  { error: strict },
);
export const ZUserCreate = z.strictObject(
  {
    email: ZEmail,
    password: ZNewPassword,
    name: ZPersonName.optional(),
    admin: z.boolean({ error: "must be true or false" }).optional(),
  },
  { error: strict },
);
// Changing one's own password: the current one, and the new one held to the rule for new passwords.
export const ZPasswordChange = z.strictObject(
  { currentPassword: ZPassword, newPassword: ZNewPassword },
  { error: strict },
);
// An admin's change to a person (PATCH /api/users/:id): any of the three, at least one.
export const ZUserUpdate = z
  .strictObject(
    {
      admin: z.boolean({ error: "must be true or false" }).optional(),
      disabled: z.boolean({ error: "must be true or false" }).optional(),
      password: ZNewPassword.optional(),
    },
    { error: strict },
  )
  .refine((u) => u.admin !== undefined || u.disabled !== undefined || u.password !== undefined, {
    error: "give admin, disabled or password",
  });
export const ZMemberRole = z.strictObject(
  { role: z.enum(ROLES, { error: "must be one of viewer, engineer, lead" }) },
  { error: strict },
);

// Shorter values could not be masked in output without masking ordinary words.
const MIN_SECRET_LENGTH = 6;
export const ZSecretValue = z.strictObject(
  {
    value: z
      .string({ error: (i) => (i.input === undefined ? "required" : "must be text") })
      .min(
        MIN_SECRET_LENGTH,
        `at least ${MIN_SECRET_LENGTH} characters: a shorter value cannot be masked in logs safely`,
      )
      .max(8192, "at most 8192 characters")
      .refine((v) => !v.includes("\0"), "must not contain NUL characters")
      // Masking replaces the value wherever a log holds it: one of spaces and line breaks would rewrite the
      // indentation and blank lines of every log of the Work.
      .refine(
        (v) => v.length < MIN_SECRET_LENGTH || v.replace(/\s/g, "").length >= MIN_SECRET_LENGTH,
        `at least ${MIN_SECRET_LENGTH} characters that are not spaces or line breaks: masking whitespace would ` +
          "rewrite every log",
      ),
  },
  { error: strict },
);
// The runner sets PATH, HOME, LANG, TERM and CI for every check itself: a secret of one of those names
// would be stored and never reach a check.
export const ZSecretName = ZEnvName.superRefine((name, ctx) => {
  if ((BASE_ENV_NAMES as readonly string[]).includes(name.toUpperCase()))
    ctx.addIssue({
      code: "custom",
      message: `${name} is set by the runner for every check; a secret of that name would never reach one`,
    });
});
