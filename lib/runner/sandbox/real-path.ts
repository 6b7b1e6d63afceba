// Where a path leads on this machine, every link on the way followed (as bwrap follows them when it binds):
// its real path, or for a path that does not exist (yet) its deepest existing folder's real path with the
// rest of the path after it.
import fs from "node:fs";
import path from "node:path";

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
