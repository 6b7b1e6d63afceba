// Test helper (root): another "host" for a worker — its own network namespace (ip netns) joined to this one
// by a veth pair, each end with its own address. PostgreSQL here listens on 127.0.0.1 only, so a small TCP
// forwarder (a process of its own) in this namespace, bound to this end's address, carries the worker's
// connections to it; git is served on the same address by `git daemon`. Everything is removed by its own
// name and id.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import net from "node:net";
import { killMarked } from "../runner/process/process-group";
import { waitFor } from "./processes";

export type Netns = {
  name: string;
  hostAddress: string;
  nsAddress: string;
  // `ip netns exec <name>` + the command
  exec: (cmd: string, args: string[]) => { cmd: string; args: string[] };
  forward: (targetHost: string, targetPort: number) => Promise<number>;
  serveGit: (baseDir: string) => Promise<number>;
  cleanup: () => Promise<void>;
};

// Listens on argv[1] (a port of its own, printed), and carries each connection to argv[2]:argv[3].
const FORWARDER = `
const net = require("node:net");
const [listenHost, targetHost, targetPort] = process.argv.slice(1);
const server = net.createServer((inbound) => {
  const outbound = net.connect(Number(targetPort), targetHost);
  inbound.setNoDelay(true);
  outbound.setNoDelay(true);
  const end = () => { inbound.destroy(); outbound.destroy(); };
  inbound.on("error", end);
  outbound.on("error", end);
  inbound.pipe(outbound).pipe(inbound);
});
server.listen(0, listenHost, () => process.stdout.write(server.address().port + "\\n"));
`;

function ip(...args: string[]): void {
  execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
}

export function createNetns(): Netns {
  const k = (process.pid % 200) + 20;
  const name = `gh-workers-${process.pid}`;
  const hostEnd = `ghw${process.pid % 100000}h`;
  const nsEnd = `ghw${process.pid % 100000}n`;
  const hostAddress = `10.213.${k}.1`;
  const nsAddress = `10.213.${k}.2`;
  ip("netns", "add", name);
  ip("link", "add", hostEnd, "type", "veth", "peer", "name", nsEnd);
  ip("link", "set", nsEnd, "netns", name);
  ip("addr", "add", `${hostAddress}/24`, "dev", hostEnd);
  ip("link", "set", hostEnd, "up");
  ip("netns", "exec", name, "ip", "addr", "add", `${nsAddress}/24`, "dev", nsEnd);
  ip("netns", "exec", name, "ip", "link", "set", nsEnd, "up");
  ip("netns", "exec", name, "ip", "link", "set", "lo", "up");

  const children: { child: ChildProcess; marker: string }[] = [];
  return {
    name,
    hostAddress,
    nsAddress,
    exec: (cmd, args) => ({ cmd: "ip", args: ["netns", "exec", name, cmd, ...args] }),
    // In a process of its own, as a network between two machines would be: a forwarder in this process
    // would wait on whatever else this process does (a benchmark dispatching runs, a test polling).
    forward: async (targetHost, targetPort) => {
      const marker = `GATEHOUSE_TEST_FORWARDER=${randomUUID()}`;
      const [key, value] = marker.split("=");
      const child = spawn(process.execPath, ["-e", FORWARDER, hostAddress, targetHost, String(targetPort)], {
        env: { ...process.env, [key]: value },
        stdio: ["ignore", "pipe", "inherit"],
      });
      children.push({ child, marker });
      return new Promise<number>((resolve, reject) => {
        child.stdout!.once("data", (data: Buffer) => resolve(Number(data.toString().trim())));
        child.once("exit", (code) => reject(new Error(`the forwarder exited (${code}) before it listened`)));
      });
    },
    serveGit: async (baseDir) => {
      const port = 20000 + (process.pid % 20000);
      const marker = `GATEHOUSE_TEST_GIT_DAEMON=${randomUUID()}`;
      const [key, value] = marker.split("=");
      const child = spawn(
        "git",
        [
          "daemon",
          "--reuseaddr",
          "--export-all",
          `--base-path=${baseDir}`,
          `--listen=${hostAddress}`,
          `--port=${port}`,
        ],
        { env: { ...process.env, [key]: value }, stdio: "ignore" },
      );
      children.push({ child, marker });
      await waitFor(
        () =>
          new Promise<boolean>((resolve) => {
            const probe = net.connect(port, hostAddress);
            probe.on("connect", () => {
              probe.destroy();
              resolve(true);
            });
            probe.on("error", () => resolve(false));
          }),
        { what: "git daemon to listen" },
      );
      return port;
    },
    cleanup: async () => {
      for (const { child, marker } of children) {
        if (child.pid && child.exitCode === null) killMarked(child.pid, [marker], "SIGTERM");
      }
      try {
        ip("link", "del", hostEnd);
      } catch {
        // already gone with the namespace
      }
      ip("netns", "del", name);
    },
  };
}
