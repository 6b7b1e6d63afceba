// Where a path leads on this machine, every link on the way followed (as bwrap follows them when it binds):
// its real path, or for a path that does not exist (yet) its deepest existing folder's real path with the
// rest of the path after it.
import fs from "node:fs";
import path from "node:path";
import { platformMountProblem } from "../../gates/sandbox-settings";

export function realPathOf(p: string): string {
  const rest: string[] = [];
  for (let at = path.resolve(p); ; ) {
    try {
      return path.join(fs.realpathSync(at), ...[...rest].reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return path.resolve(p);
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

// Who could swap a folder on the way to `p` for a link between the moment Gatehouse checks where `p` leads
// and the moment bwrap binds it (bwrap follows links when it binds): a folder of the path is replaced by
// renaming or removing its entry, which takes write access to the folder above it (and, where that folder is
// sticky like /tmp, owning the entry or the folder). The sandbox's user (`who`) writes only where it is given
// to; a path through a place it can write is refused, typed and resolved (`real`: realPathOf(p)). The first
// such place, or null.
export function placeWritableBy(p: string, real: string, who: { uid: number; gid: number }): string | null {
  for (const target of new Set([path.resolve(p), real])) {
    const parts = target.split("/").filter(Boolean);
    for (let i = 0; i < parts.length; i++) {
      const parent = `/${parts.slice(0, i).join("/")}`;
      const entry = path.join(parent, parts[i]);
      const above = fs.statSync(parent, { throwIfNoEntry: false });
      if (!above) break;
      const writes =
        (above.uid === who.uid && (above.mode & 0o200) !== 0) ||
        (above.gid === who.gid && (above.mode & 0o020) !== 0) ||
        (above.mode & 0o002) !== 0;
      if (!writes) continue;
      const isSticky = (above.mode & 0o1000) !== 0;
      const owner = fs.lstatSync(entry, { throwIfNoEntry: false })?.uid;
      // Sticky: only the entry's or the folder's owner may rename it — and one not there yet, anyone may make.
      if (!isSticky || owner === undefined || owner === who.uid || above.uid === who.uid) return parent;
    }
  }
  return null;
}

// The folder a path names as the file system knows it (device and inode: the same through a bind mount or
// a link), or null when there is none.
const idOf = (p: string) => {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}` : null;
};
const selfAndAbove = (p: string) => {
  const out: string[] = [];
  for (let at = path.resolve(p); ; at = path.dirname(at)) {
    out.push(at);
    if (path.dirname(at) === at) return out;
  }
};

// Why a mount at `where` would hand a sandboxed command the platform on this machine: inside or around the
// data dir or install folder as typed, where it leads through links, or by the folders themselves (a bind
// mount of the data dir elsewhere, /srv/gh-alias for /var/lib/gatehouse, is the same folder). `platform`:
// both as real paths; `real`: where `where` leads (realPathOf), when the caller has it. The reason (a field's
// message), or null.
export function mountPlatformProblem(
  where: string,
  platform: { dataDir: string; installDir: string },
  real = realPathOf(where),
): string | null {
  const byName = platformMountProblem(where, platform, real);
  if (byName) return byName;
  const ids = selfAndAbove(real).map(idOf);
  for (const [dir, name] of [
    [platform.dataDir, "Gatehouse's data dir"],
    [platform.installDir, "Gatehouse's install folder"],
  ] as const) {
    const dirId = idOf(dir);
    if (!dirId) continue;
    const way = ids.includes(dirId)
      ? "be inside"
      : ids[0] && selfAndAbove(dir).some((at) => idOf(at) === ids[0])
        ? "contain"
        : null;
    if (way) return `must not ${way} ${name} (${dir}): it is that folder under another name`;
  }
  return null;
}
