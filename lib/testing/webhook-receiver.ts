// Test helper: a real HTTP receiver for webhooks on 127.0.0.1 (an ephemeral port), recording each request
// (headers and the exact body bytes) and answering as the test says: a status, or never (a hanging one).
import http from "node:http";
import type { AddressInfo } from "node:net";

type Received = { headers: http.IncomingHttpHeaders; body: Buffer; json: Record<string, unknown> };
// A status to answer with, or "hang" to leave the request open until the receiver is closed.
type Answer = (request: Received, index: number) => number | "hang";

export type Receiver = { url: string; received: Received[]; close: () => Promise<void> };

export async function startReceiver(answer: Answer): Promise<Receiver> {
  const received: Received[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const request = { headers: req.headers, body, json: JSON.parse(body.toString("utf8")) };
      received.push(request);
      const status = answer(request, received.length - 1);
      if (status === "hang") {
        open.add(res);
        return;
      }
      res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
