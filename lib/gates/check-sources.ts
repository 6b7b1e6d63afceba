// Check sources (SPEC Part 2, "Check code out of the agent's reach"): repositories of check code that
// Gatehouse clones after the agent step, at a commit frozen when the run starts, where checks can read
// them but the agent never could. The rules for what may be saved live here; cloning is the runner's.
import { z } from "zod";
import { ENV_NAME_PATTERN } from "./env-names";

export const MAX_CHECK_SOURCES = 10;
const COMMIT_ID = /^[0-9a-f]{40}$/;

const ZCheckSourceName = z
  .string({ error: "must be text (a folder name such as gate-scripts)" })
  .min(1, "required: the folder name checks find it under, $GATEHOUSE_CHECKS_DIR/<name>")
  .max(64, "at most 64 characters")
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    "a folder name: letters, digits, '.', '_' and '-', starting with a letter or digit (no '/' or '..')",
  );

// What `git clone` would take as something other than a repository is refused: an option (a leading '-',
// also as the host of an ssh address), a remote helper (`ext::sh -c …`, `fd::`, any `<transport>::`),
// and schemes other than the transports the platform's git allows.
function urlProblem(url: string): string | null {
  if (url.startsWith("-")) return "must not start with '-' (git would read it as an option)";
  if (/^[A-Za-z0-9][A-Za-z0-9+.-]*::/.test(url))
    return (
      "remote helpers (<transport>::<address>, such as ext::) are not allowed: use https://, " +
      "ssh://, file:// or a path"
    );
  if (/[\s\0-\x1f\x7f]/.test(url)) return "must not contain spaces or control characters";
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url);
  if (scheme) {
    if (!["https", "http", "ssh", "git", "file"].includes(scheme[1].toLowerCase()))
      return `the ${scheme[1]}:// transport is not allowed: use https://, http://, ssh://, git:// or file://`;
    const host = url.slice(scheme[0].length).replace(/^[^/@]*@/, "");
    if (host.startsWith("-")) return "the host must not start with '-' (ssh would read it as an option)";
    return null;
  }
  // scp-like user@host:path / host:path (a colon before any slash)
  const scp = /^([^/:]+):/.exec(url);
  if (scp?.[1].replace(/^[^@]*@/, "").startsWith("-"))
    return "the host must not start with '-' (ssh would read it as an option)";
  return null;
}

const ZCheckSourceUrl = z
  .string({ error: "must be text" })
  .trim()
  .min(1, "required: anything git clone accepts (https://, ssh://, file:// or a local path)")
  .max(2000, "at most 2000 characters")
  .superRefine((url, ctx) => {
    const problem = url.length === 0 || url.length > 2000 ? null : urlProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

// `git check-ref-format --allow-onelevel` rules (a branch such as main, a tag, refs/heads/x), refused with
// the rule broken; a full 40-hex commit id is taken as that commit.
function refProblem(ref: string): string | null {
  if (COMMIT_ID.test(ref)) return null;
  if (ref.startsWith("-")) return "must not start with '-'";
  if (/[\0-\x20\x7f~^:?*[\\]/.test(ref)) return "must not contain spaces, control characters or any of ~ ^ : ? * [ \\";
  if (ref.includes("..")) return "must not contain '..'";
  if (ref.includes("@{")) return "must not contain '@{'";
  if (ref === "@") return "must not be '@' alone";
  if (ref.startsWith("/") || ref.endsWith("/") || ref.includes("//"))
    return "must not start or end with '/' or contain '//'";
  if (ref.endsWith(".")) return "must not end with '.'";
  if (ref.split("/").some((part) => part.startsWith(".") || part.endsWith(".lock")))
    return "no part between '/' may start with '.' or end with '.lock'";
  return null;
}

const ZCheckSourceRef = z
  .string({ error: "must be text (a branch, a tag or a 40-hex commit id)" })
  .min(1, "required: a branch, a tag or a 40-hex commit id")
  .max(255, "at most 255 characters")
  .superRefine((ref, ctx) => {
    const problem = ref.length === 0 || ref.length > 255 ? null : refProblem(ref);
    if (problem) ctx.addIssue({ code: "custom", message: `not a git ref: ${problem}` });
  });

const ZCheckSource = z.strictObject(
  {
    name: ZCheckSourceName,
    url: ZCheckSourceUrl,
    ref: ZCheckSourceRef,
    secret: z
      .string({ error: "must be text (the name of one of the Work's secrets)" })
      .regex(ENV_NAME_PATTERN, "a secret name: letters, digits and '_', not starting with a digit")
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown field: ${(issue.keys ?? []).join(", ")} (a check source has name, url, ref, secret)`
        : "must be an object {name, url, ref, secret?}",
  },
);
export type CheckSource = z.infer<typeof ZCheckSource>;

export const ZCheckSourceList = z
  .array(ZCheckSource, { error: "must be a list of check sources" })
  .max(MAX_CHECK_SOURCES, `at most ${MAX_CHECK_SOURCES} check sources`)
  .superRefine((list, ctx) => {
    const firstAt = new Map<string, number>();
    list.forEach((source, index) => {
      const secret = source.secret;
      if (secret !== undefined && !/^https?:\/\//i.test(source.url))
        ctx.addIssue({
          code: "custom",
          path: [index, "secret"],
          message: "a secret is sent to git as an HTTP credential: only for https:// or http:// urls",
        });
      const first = firstAt.get(source.name);
      if (first === undefined) firstAt.set(source.name, index);
      else
        ctx.addIssue({
          code: "custom",
          path: [index, "name"],
          message:
            `duplicate name "${source.name}": each check source needs its own folder (already ` +
            `used by source ${first + 1})`,
        });
    });
  });

// What a run freezes: the source as configured, and the commit its ref resolved to when the run started
// (null until then).
export type FrozenCheckSource = CheckSource & { commit: string | null };

export function isCommitId(ref: string): boolean {
  return COMMIT_ID.test(ref);
}

// Issues for check sources naming a secret the Work does not have (paths relative to the list).
export function unknownSecretIssues(
  sources: readonly CheckSource[],
  secretNames: readonly string[],
): { path: (string | number)[]; message: string }[] {
  const known = new Set(secretNames);
  return sources.flatMap((source, index) =>
    source.secret !== undefined && !known.has(source.secret)
      ? [
          {
            path: [index, "secret"],
            message: `the Work has no secret named ${source.secret}: add it under Access → Secrets first`,
          },
        ]
      : [],
  );
}
