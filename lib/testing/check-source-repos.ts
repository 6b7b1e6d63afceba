// Test helpers for check sources: a repository of check code, and a password-protected HTTP git server
// (git's "dumb" protocol: the bare repository's files served as they are) for private sources.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { gitIn, makeGitRepo, type TestRepo } from "./git-repo";

// A gate script that says which commit of the source it is, and fails unless the task wrote done.txt.
const GATE_SCRIPT = `echo "genuine gate $(cat "$(dirname "$0")/VERSION")"
test -f done.txt
`;

export function makeCheckSourceRepo(version = "v1"): TestRepo {
  return makeGitRepo({ "check.sh": GATE_SCRIPT, VERSION: `${version}\n` });
}

export type HttpGitServer = { url: string; requests: { authorization: string | undefined }[]; close: () => void };

// Serves a bare copy of `repo` at http://127.0.0.1:<port>/repo.git, answering 401 without `Basic <expected>`.
export async function serveOverHttp(repo: TestRepo, expectedBasic: string): Promise<HttpGitServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-http-git-"));
  const bare = path.join(root, "repo.git");
  gitIn(root, "clone", "--quiet", "--bare", repo.dir, bare);
  gitIn(bare, "update-server-info");
  const requests: HttpGitServer["requests"] = [];
  const server = http.createServer((req, res) => {
    requests.push({ authorization: req.headers.authorization });
    if (req.headers.authorization !== `Basic ${expectedBasic}`) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' }).end();
      return;
    }
    const rel = decodeURIComponent((req.url ?? "/").split("?")[0]).replace(/^\/repo\.git\/?/, "");
    const file = path.join(bare, rel);
    if (!file.startsWith(bare) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": "application/octet-stream" }).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/repo.git`,
    requests,
    close: () => {
      server.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
