// A repository named by a local path or file:// URL (a Work's repoUrl, a check source's url) is read by the
// server's user, who can read far more than a lead may: Gatehouse's data dir (the database, the key, other
// Works' clones, other runs' worktrees) and its install. Such a path is resolved with realpath (links
// followed, as git would) and refused when it lands in either, except the demo repository the platform
// makes in its data dir. Checked when a Work is saved and again when the server clones.
import fs from "node:fs";
import path from "node:path";

// The path git would open for a local URL; null for a network one (scheme://, or scp-like host:path).
export function localPathOf(url: string): string | null {
  if (/^file:\/\//i.test(url)) {
    try {
      return decodeURIComponent(new URL(url).pathname);
    } catch {
      return url.slice("file://".length);
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return null;
  // git reads a colon before the first slash as host:path (ssh).
  if (/^[^/]*:/.test(url)) return null;
  return path.resolve(url);
}

// realpath of the path, or of its deepest existing folder with the rest appended (a path made later
// cannot dodge the check by not existing yet).
function realPathOf(p: string): string {
  const rest: string[] = [];
  let at = path.resolve(p);
  for (;;) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return path.resolve(p);
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

const isInside = (root: string, p: string) => p === root || p.startsWith(root + path.sep);

export type LocalRepositoryRoots = { dataDir: string; installDir: string };

// Why this URL may not be cloned by the server, or null.
export function localRepositoryProblem(url: string, roots: LocalRepositoryRoots): string | null {
  const local = localPathOf(url);
  if (local === null) return null;
  const real = realPathOf(local);
  const dataDir = realPathOf(roots.dataDir);
  if (isInside(path.join(dataDir, "demo"), real)) return null;
  if (isInside(dataDir, real))
    return (
      "is inside Gatehouse's data dir (its database, key, logs and other Works' repositories): a " +
      "local repository must be outside it"
    );
  if (isInside(realPathOf(roots.installDir), real))
    return "is inside Gatehouse's install folder: a local repository must be outside it";
  return null;
}

// Whether two local URLs name the same repository (or one lies inside the other), after realpath.
export function isSameLocalRepository(a: string, b: string): boolean {
  const pa = localPathOf(a);
  const pb = localPathOf(b);
  if (pa === null || pb === null) return false;
  const ra = realPathOf(pa);
  const rb = realPathOf(pb);
  return isInside(ra, rb) || isInside(rb, ra);
}
