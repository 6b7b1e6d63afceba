// better-sqlite3 has no prebuilt binary here (no internet): `npm install` compiles SQLite from source, a
// minute of one core on every clean install. Once it is compiled, this keeps the binary where
// better-sqlite3's own installer (prebuild-install) looks before it downloads: npm's cache, under the
// address of the prebuilt binary for this version, Node ABI, platform and architecture. The next install
// of the same version on this machine unpacks it (and loads it, to check) instead of compiling. A
// different version or Node is another address, so it compiles again; `npm_config_build_from_source=true`
// always compiles.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

function cacheSqliteBuild() {
  const pkgDir = path.dirname(require.resolve("better-sqlite3/package.json"));
  const binary = path.join(pkgDir, "build", "Release", "better_sqlite3.node");
  if (!fs.existsSync(binary)) return;
  const pkg = require("better-sqlite3/package.json");
  const installerDir = path.dirname(require.resolve("prebuild-install/package.json", { paths: [pkgDir] }));
  const util = require(path.join(installerDir, "util.js"));
  const opts = { ...require(path.join(installerDir, "rc.js"))(pkg), pkg };
  const cached = util.cachedPrebuild(util.getDownloadUrl(opts));
  if (fs.existsSync(cached)) return;
  // Only a binary that loads here is kept.
  require(binary);
  fs.mkdirSync(path.dirname(cached), { recursive: true });
  const partial = `${cached}.${process.pid}.tmp`;
  execFileSync("tar", ["-czf", partial, "-C", pkgDir, "build/Release/better_sqlite3.node"]);
  fs.renameSync(partial, cached);
  console.log(`gatehouse: kept the compiled better-sqlite3 in npm's cache (${cached})`);
}

try {
  cacheSqliteBuild();
} catch (error) {
  // Only a cache: the install stands without it.
  console.warn(`gatehouse: could not keep the compiled better-sqlite3 in npm's cache: ${error.message}`);
}
