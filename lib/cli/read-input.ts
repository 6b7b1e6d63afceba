// What the user hands the CLI on stdin: a gates file given as `-`, a hook's JSON payload, a password.
// Stdin is always read as a stream, never with a synchronous read of fd 0: once anything in the process has
// touched process.stdin (an ES import of node:process does, and the MCP SDK makes one) a pipe's fd is
// non-blocking, and a synchronous read of a pipe whose writer is slow fails with EAGAIN.
import { CliError } from "./cli-error";

// All of the stream until its end (at a terminal: until Ctrl-D, as `cat` reads).
export async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

type Input = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (isRaw: boolean) => unknown };
type Terminal = Input & { setRawMode: (isRaw: boolean) => unknown };

// The password for `gatehouse login --email`: at a terminal, asked for on `output` and typed without
// being shown; piped in (`… | gatehouse login`, a script), the first line of stdin, asking nothing.
export async function readPassword(
  question: string,
  io: { input: Input; output: NodeJS.WritableStream },
): Promise<string> {
  if (!io.input.isTTY || !io.input.setRawMode) return (await readAll(io.input)).split(/\r?\n/)[0];
  return askHidden(question, io.input as Terminal, io.output);
}

// Raw mode turns the terminal's echo off, so the keys are read one by one and edited here: Enter ends,
// Backspace and Ctrl-U edit, Ctrl-C gives up (raw mode delivers it as a key, not a signal).
function askHidden(question: string, input: Terminal, output: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = "";
    const finish = (error?: CliError) => {
      input.off("data", onKeys);
      input.off("end", onEnd);
      input.setRawMode(false);
      input.pause();
      output.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onEnd = () => finish();
    const onKeys = (chunk: Buffer | string) => {
      const keys = chunk.toString();
      // An arrow or function key (an escape sequence) is not part of a password.
      if (keys.startsWith("\u001b")) return;
      for (const key of keys) {
        if (key === "\r" || key === "\n" || key === "\u0004") return finish();
        if (key === "\u0003") return finish(new CliError("sign-in cancelled", 130));
        if (key === "\u007f" || key === "\b") typed = Array.from(typed).slice(0, -1).join("");
        else if (key === "\u0015") typed = "";
        else if (key >= " ") typed += key;
      }
    };
    input.setRawMode(true);
    output.write(question);
    input.on("data", onKeys);
    input.on("end", onEnd);
    input.resume();
  });
}
