// The password of `gatehouse login --email`: asked at a terminal without showing what is typed, read from
// stdin's first line when it is piped in. The terminal is a stand-in here (lib/cli/cli.test.ts types into
// a real one).
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { CliError } from "./cli-error";
import { readPassword } from "./read-input";

// A terminal's stdin: what the user types arrives as keys, one chunk per key, once raw mode is on.
class FakeTerminal extends PassThrough {
  readonly isTTY = true;
  readonly rawModes: boolean[] = [];
  setRawMode(isRaw: boolean): this {
    this.rawModes.push(isRaw);
    return this;
  }
  type(keys: string[]): void {
    for (const key of keys) this.write(key);
  }
}

function screen(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { stream, text: () => text };
}

describe("readPassword", () => {
  it("at a terminal: asks, takes the keys up to Enter (Backspace and Ctrl-U edit), shows none of them", async () => {
    const input = new FakeTerminal();
    const output = screen();
    const answer = readPassword("password for dev@example.com: ", { input, output: output.stream });
    input.type(["x", "y", "\u0015", "s", "e", "c", "r", "e", "t", "t", "\u007f", "\r"]);
    expect(await answer).toBe("secret");
    expect(output.text()).toBe("password for dev@example.com: \n");
    // Raw mode (no echo) while typing, and the terminal given back as it was.
    expect(input.rawModes).toEqual([true, false]);
  });

  it("at a terminal: Ctrl-C gives up with exit 130, the terminal given back", async () => {
    const input = new FakeTerminal();
    const answer = readPassword("password: ", { input, output: screen().stream });
    input.type(["s", "\u0003"]);
    await expect(answer).rejects.toEqual(new CliError("sign-in cancelled", 130));
    expect(input.rawModes).toEqual([true, false]);
  });

  it("piped in: the first line, without asking", async () => {
    const input = new PassThrough();
    const output = screen();
    const answer = readPassword("password: ", { input, output: output.stream });
    input.end("secret\r\nmore\n");
    expect(await answer).toBe("secret");
    expect(output.text()).toBe("");
  });
});
