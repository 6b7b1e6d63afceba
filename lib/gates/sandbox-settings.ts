// A Work's sandbox settings (SPEC Part 3, issue 20): whether the agent and the checks reach the network, the
// extra paths bound into the sandbox, and which refs of the repository a task's checkout may see besides its
// own branch. Stored, validated and frozen here; the sandbox and the checkout read them from the run.
import { z } from "zod";
import type { FieldIssue } from "./field-issues";

export const NETWORK_MODES = ["on", "off"] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];
export const ZNetworkMode = z.enum(NETWORK_MODES, { error: "must be on or off" });

export const MOUNT_MODES = ["ro", "rw"] as const;
export const MAX_SANDBOX_MOUNTS = 20;
const MAX_VISIBLE_REFS = 20;

const ZMountPath = z
  .string({ error: "must be text (an absolute path such as /opt/toolchain)" })
  .min(1, "must not be empty")
  .max(1000, "at most 1000 characters")
  .superRefine((p, ctx) => {
    const problem = /[\0\n\r]/.test(p)
      ? "must not contain NUL or line breaks"
      : !p.startsWith("/")
        ? "must be an absolute path (starting with /)"
        : p.split("/").includes("..")
          ? "must not contain '..'"
          : p.split("/").includes(".")
            ? "must not contain '.' as a folder"
            : p === "/"
              ? "must not be / (the system is already visible read-only)"
              : null;
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const ZSandboxMount = z.strictObject(
  {
    path: ZMountPath,
    mode: z.enum(MOUNT_MODES, { error: "must be ro (read-only) or rw (read-write)" }),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown field: ${(issue.keys ?? []).join(", ")}`
        : "must be an object {path, mode}",
  },
);
export type SandboxMount = z.output<typeof ZSandboxMount>;

export const ZSandboxMounts = z
  .array(ZSandboxMount, { error: "must be a list of {path, mode}" })
  .max(MAX_SANDBOX_MOUNTS, `at most ${MAX_SANDBOX_MOUNTS} mounts`)
  .superRefine((mounts, ctx) => {
    const seen = new Set<string>();
    mounts.forEach((m, i) => {
      const key = typeof m?.path === "string" ? m.path.replace(/\/+$/, "") : null;
      if (key === null) return;
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i, "path"], message: "listed twice" });
      seen.add(key);
    });
  });

// A ref glob: git's ref-name rules (git check-ref-format) with '*' allowed as a wildcard.
const REF_GLOB_CHARS = /^[A-Za-z0-9._/*+#-]+$/;
export const ZRefGlob = z
  .string({ error: "must be text (a ref glob such as refs/tags/v* or release/*)" })
  .min(1, "must not be empty")
  .max(200, "at most 200 characters")
  .superRefine((g, ctx) => {
    const problem = !REF_GLOB_CHARS.test(g)
      ? "not a ref glob: letters, digits, '.', '_', '/', '-', '+', '#' and '*' only"
      : g.startsWith("-") || g.startsWith("/")
        ? "not a ref glob: must not start with '-' or '/'"
        : g.includes("..") || g.includes("//")
          ? "not a ref glob: must not contain '..' or '//'"
          : g.endsWith("/") || g.endsWith(".") || g.endsWith(".lock")
            ? "not a ref glob: must not end with '/', '.' or '.lock'"
            : g.split("/").some((part) => part.startsWith(".") || part.endsWith(".lock"))
              ? "not a ref glob: no part between '/' may start with '.' or end with '.lock'"
              : null;
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const ZVisibleRefs = z
  .array(ZRefGlob, { error: "must be a list of ref globs" })
  .max(MAX_VISIBLE_REFS, `at most ${MAX_VISIBLE_REFS} ref globs`)
  .superRefine((refs, ctx) => {
    refs.forEach((r, i) => {
      if (refs.indexOf(r) !== i) ctx.addIssue({ code: "custom", path: [i], message: "listed twice" });
    });
  });

// Absolute POSIX paths without '.' or '..' (the schema saw to that): compare them folder by folder.
const folders = (p: string) => p.split("/").filter(Boolean);
const isInside = (child: string, parent: string) => {
  const [c, p] = [folders(child), folders(parent)];
  return p.length <= c.length && p.every((part, i) => part === c[i]);
};

// Mounts that would hand the platform to a sandboxed command: inside (or a parent of) the data dir or the
// install folder, as typed or where the path leads through links (`resolved[i]`, mount i's real path: bwrap
// follows links when it binds, so a link to the data dir would bind the data dir itself). Needs the server's
// configuration (both as absolute real paths), so the service applies it when it saves.
export function platformMountIssues(
  mounts: readonly SandboxMount[],
  platform: { dataDir: string; installDir: string },
  resolved: readonly string[] = [],
): FieldIssue[] {
  return mounts.flatMap((m, i) => {
    const message = platformMountProblem(m.path, platform, resolved[i]);
    return message ? [{ path: `sandboxMounts.${i}.path`, message }] : [];
  });
}

// Why a mount at `where` (leading to `real`) would reach the platform, or null.
export function platformMountProblem(
  where: string,
  platform: { dataDir: string; installDir: string },
  real: string = where,
): string | null {
  const places = [
    { dir: platform.dataDir, name: "Gatehouse's data dir" },
    { dir: platform.installDir, name: "Gatehouse's install folder" },
  ];
  for (const p of [where, real]) {
    const hit = places.find((place) => isInside(p, place.dir) || isInside(place.dir, p));
    if (!hit) continue;
    const rule = isInside(p, hit.dir)
      ? `must not be inside ${hit.name} (${hit.dir})`
      : `must not contain ${hit.name} (${hit.dir})`;
    return p === where ? rule : `${rule}: it leads through a link to ${real}`;
  }
  return null;
}
