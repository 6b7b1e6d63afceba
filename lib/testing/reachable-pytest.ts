// pytest for the sandbox's user: the system python3 with a copy of the pytest the machine's python3 has
// (pyenv's lives under /root, which that user cannot enter), in a folder `dir` readable by everyone — one the
// sandbox shows (a Work's `sandboxMounts`, or a system folder such as /opt). Returns the command that runs
// python with it (`PYTHONPATH=… /usr/bin/python3`), or null when this machine has no pytest or no system python3.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const PYTEST_PACKAGES = /^(_?pytest|pluggy|iniconfig|packaging|pygments|py\.py)$|^(pytest|pluggy)-.*\.dist-info$/;

export function copyPytestTo(dir: string): string | null {
  let site: string;
  try {
    site = execFileSync(
      "python3",
      ["-c", "import os, pytest; print(os.path.dirname(os.path.dirname(pytest.__file__)))"],
      {
        encoding: "utf8",
      },
    ).trim();
  } catch {
    return null;
  }
  if (!fs.existsSync("/usr/bin/python3")) return null;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const name of fs.readdirSync(site))
    if (PYTEST_PACKAGES.test(name)) fs.cpSync(path.join(site, name), path.join(dir, name), { recursive: true });
  execFileSync("chmod", ["-R", "a+rX", dir]);
  return `PYTHONPATH=${dir} /usr/bin/python3`;
}
