// The review's recording shims (steps/review.ts): a folder with one symlink per program name on the PATH,
// all to one bash script that appends its pid and command line to $GATEHOUSE_EXEC_LOG, then execs the real
// program.
//
// One folder serves every review of a data dir with the same PATH, made once and kept: a PATH holds
// ~1,600 programs here, and a folder of its own per review cost 1,600 symlinks made on the server's event
// loop (20 ms on a quiet disk, 0.4–0.5 s on the development VM's at times). Each review then reads the
// folder's links back (~7 ms), lists again only the PATH folders that changed, and links the programs that
// appeared since. The folder is the platform's (root's, 0755: the run-as user reads it and writes nothing there; the
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
    "# Gatehouse review shim: finds the real program, records the command (pid, command line), runs it.",
    "n=${0##*/}",
    'printf -v line "%q " "$n" "$@"',
    'IFS=: read -r -a dirs <<< "$PATH"',
    'for d in "${dirs[@]}"; do',
    `  [ "$d" = ${shellQuote(bin)} ] || [ -z "$d" ] && continue`,
    '  if [ -f "$d/$n" ] && [ -x "$d/$n" ]; then',
    `    printf '%s\\t%s\\n' "$$" "\${line% }" >> "$GATEHOUSE_EXEC_LOG" 2>/dev/null || true`,
    '    exec -a "$n" "$d/$n" "$@"',
    "  fi",
    "done",
    'printf "%s: command not found\\n" "$n" >&2',
    "exit 127",
    "",
  ].join("\n");
}

// What this process knows of a shim folder: the names linked, and each PATH folder as it was when last
// listed in full (its real path, device, inode and times; recorded only once those times are 2 s old, as
// a program added within the same clock tick leaves them as they were).
type Known = { names: Set<string>; listed: Map<string, string> };
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
  // Checked whole at every review (~7 ms for 1,600 links): a change time cannot tell, as a link replaced
  // within the same clock tick as the last one made leaves the folder's times as they were.
  const present = linksIn(dir, bin, script);
  let state = known.get(bin);
  let linked = 0;
  if (!present) {
    const made = adopt(root, dir, bin, script, dirs);
    state = made.state;
    linked += made.linked;
  } else if (!state || [...state.names].some((name) => !present.has(name))) {
    // Taken up from another process, or a link was removed behind the platform's back: every PATH folder is
    // listed again and what is missing linked.
    state = { names: present, listed: new Map() };
  }
  linked += linkPrograms(bin, script, dirs, state);
  known.set(bin, state);
  return { bin, linked };
}

// Links every program of the PATH folders not linked yet, listing only the folders that changed since they
// were last listed.
function linkPrograms(bin: string, script: string, dirs: readonly string[], state: Known): number {
  let linked = 0;
  for (const d of dirs) {
    const seen = folderAsNow(d);
    if (seen && state.listed.get(d) === seen.id) continue;
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
    if (seen?.isSettled) state.listed.set(d, seen.id);
    else state.listed.delete(d);
  }
  return linked;
}

function folderAsNow(d: string): { id: string; isSettled: boolean } | null {
  try {
    const real = fs.realpathSync(d);
    const st = fs.statSync(real);
    const changed = Math.max(st.mtimeMs, st.ctimeMs);
    return { id: [real, st.dev, st.ino, st.mtimeMs, st.ctimeMs].join("\0"), isSettled: Date.now() - changed > 2000 };
  } catch {
    return null;
  }
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

// Makes the folder anew, every program of the PATH linked, under a temporary name, then renamed into place:
// a review never finds it without its links. Another process of this data dir may be doing the same; the
// folder that ends up in place is whole either way.
function adopt(
  root: string,
  dir: string,
  bin: string,
  script: string,
  dirs: readonly string[],
): { state: Known; linked: number } {
  fs.mkdirSync(root, { recursive: true });
  fs.chmodSync(root, 0o755);
  removeLeftovers(root, path.basename(dir));
  const fresh = fs.mkdtempSync(path.join(root, ".new-"));
  fs.chmodSync(fresh, 0o755);
  // Modes set outright: a strict umask would leave the run-as user unable to enter or run them.
  fs.mkdirSync(path.join(fresh, "bin"));
  fs.chmodSync(path.join(fresh, "bin"), 0o755);
  fs.writeFileSync(path.join(fresh, "record-exec"), shimScript(bin));
  fs.chmodSync(path.join(fresh, "record-exec"), 0o755);
  // The links name the script where it will be once the folder is in place.
  const state: Known = { names: new Set(), listed: new Map() };
  const linked = linkPrograms(path.join(fresh, "bin"), script, dirs, state);
  const old = `${dir}.old-${process.pid}-${Date.now()}`;
  let isMoved = false;
  try {
    fs.renameSync(dir, old);
    isMoved = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  try {
    fs.renameSync(fresh, dir);
  } catch (error) {
    // Another process put its folder there first: use that one.
    fs.rmSync(fresh, { recursive: true, force: true });
    const theirs = linksIn(dir, bin, script);
    if (!theirs) throw error;
    return { state: { names: theirs, listed: new Map() }, linked: 0 };
  } finally {
    if (isMoved) fs.rmSync(old, { recursive: true, force: true });
  }
  return { state, linked };
}

// Folders a process left half made or set aside when it stopped mid-way (a minute old or more).
function removeLeftovers(root: string, key: string): void {
  for (const name of fs.readdirSync(root)) {
    if (!name.startsWith(".new-") && !name.startsWith(`${key}.old-`)) continue;
    const p = path.join(root, name);
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (st && Date.now() - st.mtimeMs > 60_000) fs.rmSync(p, { recursive: true, force: true });
  }
}

// The names in bin when the folder is whole: the folder and bin folders and the script a file, all the
// platform's (owned by this process's user, writable by no one else), every entry of bin a link to the
// script, and the script saying what it should. null otherwise (and on any error reading them).
function linksIn(dir: string, bin: string, script: string): Set<string> | null {
  try {
    const uid = process.getuid?.() ?? 0;
    const kinds: [string, (st: fs.Stats) => boolean][] = [
      [dir, (st) => st.isDirectory()],
      [bin, (st) => st.isDirectory()],
      [script, (st) => st.isFile()],
    ];
    for (const [p, isKind] of kinds) {
      const st = fs.lstatSync(p, { throwIfNoEntry: false });
      if (!st || !isKind(st) || st.uid !== uid || (st.mode & 0o022) !== 0) return null;
    }
    if (fs.readFileSync(script, "utf8") !== shimScript(bin)) return null;
    const names = fs.readdirSync(bin);
    return names.every((name) => fs.readlinkSync(path.join(bin, name)) === script) ? new Set(names) : null;
  } catch {
    return null;
  }
}
