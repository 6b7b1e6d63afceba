// The review's recording shims (steps/review.ts): a folder with one symlink per program name on the PATH,
// all to one bash script that appends its pid and command line to $GATEHOUSE_EXEC_LOG, then execs the real
// program.
//
// One folder serves every review of a data dir with the same PATH, made once and kept: a PATH holds
// ~1,600 programs here, and a folder of its own per review cost 1,600 symlinks made on the server's event
// loop (20 ms on a quiet disk, 0.4–0.5 s on the development VM's once it had been used a while). Each review
// then only looks whether a folder of the PATH changed (one stat each) and links the programs that appeared
// since. The folder is the platform's (root's, 0755: the run-as user reads it and writes nothing there; the
// sandbox binds it read-only); if its entries or script were changed by anyone else (root, outside the
// sandbox), it is made anew.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { shellQuote } from "../../gates/shell-quote";

const SHIMS_DIR = "review-shims";

function shimScript(bin: string): string {
  return [
    "#!/bin/bash",
    "# Gatehouse review shim: records the command (pid, command line), then runs the real program.",
    "n=${0##*/}",
    'printf -v line "%q " "$n" "$@"',
    `printf '%s\\t%s\\n' "$$" "\${line% }" >> "$GATEHOUSE_EXEC_LOG" 2>/dev/null || true`,
    'IFS=: read -r -a dirs <<< "$PATH"',
    'for d in "${dirs[@]}"; do',
    `  [ "$d" = ${shellQuote(bin)} ] || [ -z "$d" ] && continue`,
    '  if [ -f "$d/$n" ] && [ -x "$d/$n" ]; then exec -a "$n" "$d/$n" "$@"; fi',
    "done",
    'printf "%s: command not found\\n" "$n" >&2',
    "exit 127",
    "",
  ].join("\n");
}

// What this process knows of a shim folder: the names linked, and the PATH folders' times when they were
// last listed.
type Known = { names: Set<string>; pathMtimes: Map<string, number> };
const known = new Map<string, Known>();

export type ShimFolder = { bin: string; linked: number };

// The shim folder for this PATH in the data dir, with a link for every program now on the PATH. `linked`:
// how many links this call made (0 when nothing on the PATH changed).
export function reviewShims(dataDir: string, pathDirs: readonly string[]): ShimFolder {
  const dirs = pathDirs.filter((d) => d && path.isAbsolute(d));
  const key = crypto.createHash("sha256").update(shimScript("\0")).update(dirs.join("\0")).digest("hex").slice(0, 16);
  const root = path.join(/* turbopackIgnore: true */ dataDir, SHIMS_DIR);
  const dir = path.join(root, key);
  const bin = path.join(dir, "bin");
  const script = path.join(dir, "record-exec");
  let state = known.get(bin);
  // Checked whole at every review (~7 ms for 1,600 links): a change time cannot tell, as a link replaced
  // within the same clock tick as the last one made leaves the folder's times as they were.
  if (!state || !isWhole(dir, bin, script)) state = adopt(root, dir, bin, script);
  let linked = 0;
  for (const d of dirs) {
    const mtime = fs.statSync(d, { throwIfNoEntry: false })?.mtimeMs;
    if (mtime === undefined || state.pathMtimes.get(d) === mtime) continue;
    for (const name of programsIn(d)) {
      if (state.names.has(name)) continue;
      try {
        fs.symlinkSync(script, path.join(bin, name));
        linked++;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      state.names.add(name);
    }
    state.pathMtimes.set(d, mtime);
  }
  known.set(bin, state);
  return { bin, linked };
}

function programsIn(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() || e.isSymbolicLink())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

// Takes up the folder as found (another process of this data dir may have made it) when it is whole and
// the platform's, or makes it anew: built under a temporary name and renamed into place, so no review ever
// sees half a folder.
function adopt(root: string, dir: string, bin: string, script: string): Known {
  fs.mkdirSync(root, { recursive: true });
  fs.chmodSync(root, 0o755);
  const found = isWhole(dir, bin, script);
  if (!found) {
    const fresh = fs.mkdtempSync(path.join(root, ".new-"));
    fs.chmodSync(fresh, 0o755);
    // Modes set outright: a strict umask would leave the run-as user unable to enter or run them.
    fs.mkdirSync(path.join(fresh, "bin"));
    fs.chmodSync(path.join(fresh, "bin"), 0o755);
    fs.writeFileSync(path.join(fresh, "record-exec"), shimScript(bin));
    fs.chmodSync(path.join(fresh, "record-exec"), 0o755);
    const old = `${dir}.old-${process.pid}-${Date.now()}`;
    if (fs.existsSync(dir)) fs.renameSync(dir, old);
    try {
      fs.renameSync(fresh, dir);
    } catch (error) {
      // Another process put its folder there first: use that one.
      fs.rmSync(fresh, { recursive: true, force: true });
      if (!isWhole(dir, bin, script)) throw error;
    }
    fs.rmSync(old, { recursive: true, force: true });
  }
  return { names: new Set(found ? fs.readdirSync(bin) : []), pathMtimes: new Map() };
}

// The folder, its bin and its script are the platform's (owned by this process's user, writable by no
// one else), every entry of bin is a link to the script, and the script says what it should.
function isWhole(dir: string, bin: string, script: string): boolean {
  const uid = process.getuid?.() ?? 0;
  for (const p of [dir, bin, script]) {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink() || st.uid !== uid || (st.mode & 0o022) !== 0) return false;
  }
  if (fs.readFileSync(script, "utf8") !== shimScript(bin)) return false;
  return fs.readdirSync(bin).every((name) => {
    try {
      return fs.readlinkSync(path.join(bin, name)) === script;
    } catch {
      return false;
    }
  });
}
