// What the user hands the CLI on stdin: a gates file given as `-`, a hook's JSON payload, a password.
// Stdin is always read as a stream, never with a synchronous read of fd 0: once anything in the process has
// touched process.stdin (an ES import of node:process does, and the MCP SDK makes one) a pipe's fd is
// non-blocking, and a synchronous read of a pipe whose writer is slow fails with EAGAIN.

// All of the stream until its end (at a terminal: until Ctrl-D, as `cat` reads).
export async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}
