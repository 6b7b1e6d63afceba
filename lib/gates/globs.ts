// Globs over paths relative to the checkout root (picomatch, with dotfiles matched): the Work's
// testPatterns and protectedPaths. A glob is refused when it cannot match inside the checkout or does
// not parse (an unclosed [ { or ( is a mistake, not a literal).
import picomatch from "picomatch";
import { z } from "zod";

const MAX_GLOBS = 50;

function parseProblem(glob: string): string | null {
  try {
    picomatch.makeRe(glob, { strictBrackets: true, dot: true });
    return null;
  } catch (error) {
    const reason = (error as Error).message.split(" - ")[0];
    return `not a glob: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
  }
}

export const ZGlob = z
  .string({ error: "must be text (a glob such as **/*.test.ts)" })
  .min(1, "must not be empty")
  .max(300, "at most 300 characters")
  .superRefine((glob, ctx) => {
    if (glob.length === 0 || glob.length > 300) return; // already said
    const problem = /[\0\n\r]/.test(glob)
      ? "must not contain NUL or line breaks"
      : glob.trim() !== glob
        ? "must not start or end with spaces"
        : glob.startsWith("/") || glob.startsWith("~") || /^[A-Za-z]:[\\/]/.test(glob)
          ? "must be relative to the checkout root, not absolute"
          : glob.split("/").includes("..")
            ? "must stay inside the checkout: '..' is not allowed"
            : glob.startsWith("!")
              ? "a leading '!' (negation) is not supported: list only what should match"
              : glob.includes("\\")
                ? "use '/' between folders (a backslash is not a path separator here)"
                : parseProblem(glob);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const ZGlobList = z
  .array(ZGlob, { error: "must be a list of globs" })
  .max(MAX_GLOBS, `at most ${MAX_GLOBS} globs`);

// A predicate telling whether a checkout-relative path ("src/a.test.ts") matches any of the globs. The same
// lists come back several times an attempt (test patterns, protected paths, held-out files): each list is
// compiled once and the last few kept (picomatch's parse was ~1 ms of a worker's CPU a run).
export function globMatcher(globs: readonly string[]): (file: string) => boolean {
  if (globs.length === 0) return () => false;
  const key = globs.join("\0");
  let matcher = compiled.get(key);
  if (!matcher) {
    const isMatch = picomatch([...globs], { dot: true });
    matcher = (file) => isMatch(file.replace(/^\.\//, ""));
    compiled.set(key, matcher);
    if (compiled.size > COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  }
  return matcher;
}

const compiled = new Map<string, (file: string) => boolean>();
const COMPILED_KEPT = 64;
