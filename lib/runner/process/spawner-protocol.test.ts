// The spawner's protocol as the platform reads it (spawner.c writes the other side).
import { describe, expect, it } from "vitest";
import { SpawnerProtocol } from "./spawner";

const request = {
  file: "bash",
  args: ["-c", "true"],
  cwd: "/",
  env: {},
  stdinPath: null,
  outPath: "/dev/null",
  runAs: null,
};

describe("SpawnerProtocol", () => {
  it("a refusal from a sandbox's spawner that is ending closes the channel at once", async () => {
    const sent: string[] = [];
    const protocol = new SpawnerProtocol((data) => sent.push(data));
    const first = protocol.launch(request);
    // The id the request went out with is its first field after the tag.
    const id = sent[0].split("\0")[1];
    protocol.receive(`E ${id} a command changed the sandbox's resource limits: the sandbox ends`);
    expect(await first).toEqual({ error: "a command changed the sandbox's resource limits: the sandbox ends" });
    // Read before the channel's end is: the next command goes to a new sandbox (AttemptContext.execInside).
    expect(protocol.isOpen).toBe(false);
  });

  it("any other refusal leaves it open", async () => {
    const sent: string[] = [];
    const protocol = new SpawnerProtocol((data) => sent.push(data));
    const first = protocol.launch(request);
    protocol.receive(`E ${sent[0].split("\0")[1]} too many commands at once`);
    expect(await first).toEqual({ error: "too many commands at once" });
    expect(protocol.isOpen).toBe(true);
  });
});
