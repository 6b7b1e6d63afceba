import { describe, expect, it } from "vitest";
import type { Check } from "../check-schema";
import { parseGatesFile, toGatesMarkdown, toGatesYaml } from ".";

const checks: Check[] = [{ id: "unit", name: "Unit", kind: "test", command: "npm test", required: true }];
const sandbox = {
  agentNetwork: "off" as const,
  checkNetwork: "on" as const,
  sandboxMounts: [
    { path: "/opt/toolchain", mode: "ro" as const },
    { path: "/root/.cache/ms-playwright", mode: "rw" as const },
  ],
  visibleRefs: ["refs/tags/v*", "release/*"],
};

describe("the Work's sandbox settings in gates files", () => {
  it.each([
    ["YAML", toGatesYaml],
    ["Markdown", toGatesMarkdown],
  ])("%s export and import keep them, beside the checks", (_format, write) => {
    const read = parseGatesFile(write(checks, { sandbox }));
    expect(read.sandbox).toEqual(sandbox);
    expect(read.sandboxProblems).toEqual([]);
    expect(read.entries.map((e) => e.check)).toEqual(checks);
  });

  it("reads as a person would write it", () => {
    expect(toGatesYaml(checks, { sandbox })).toContain(
      "sandbox:\n  agent_network: off\n  check_network: on\n  mounts:\n    - path: /opt/toolchain\n      mode: ro\n",
    );
    expect(toGatesMarkdown(checks, { sandbox })).toContain(
      [
        "## Sandbox",
        "",
        "- agent_network: off",
        "- check_network: on",
        "- mounts: `/opt/toolchain` (ro), `/root/.cache/ms-playwright` (rw)",
        "- visible_refs: `refs/tags/v*`, `release/*`",
      ].join("\n"),
    );
  });

  it("a file without them says none and leaves the Work's alone", () => {
    expect(parseGatesFile("gates:\n  - npm test\n").sandbox ?? null).toBeNull();
    expect(toGatesYaml(checks)).not.toContain("sandbox");
    expect(toGatesMarkdown(checks)).not.toContain("## Sandbox");
  });

  it("lists each bad value with its key, keeping the good ones", () => {
    const read = parseGatesFile(
      [
        "gates:",
        "  - npm test",
        "sandbox:",
        "  agent_network: sometimes",
        "  check_network: false",
        "  mounts: [{ path: relative/dir, mode: ro }]",
        "  visible_refs: ['refs/heads/a b']",
        "  colour: red",
        "",
      ].join("\n"),
    );
    expect(read.sandbox).toEqual({ checkNetwork: "off" });
    expect(read.sandboxProblems).toEqual([
      "sandbox: agent_network: must be on or off",
      "sandbox: mounts 1 path: must be an absolute path (starting with /)",
      "sandbox: visible_refs 1: not a ref glob: letters, digits, '.', '_', '/', '-', '+', '#' and '*' only",
      "sandbox: unknown field: colour (known: agent_network, check_network, mounts, visible_refs)",
    ]);
  });

  it("a Markdown mount without its mode is refused, naming it", () => {
    const read = parseGatesFile(
      [
        "## Code Checks",
        "",
        "### unit — Unit",
        "",
        "```bash",
        "npm test",
        "```",
        "",
        "## Sandbox",
        "",
        "- mounts: `/opt/x`",
        "",
      ].join("\n"),
    );
    expect(read.sandbox).toBeNull();
    expect(read.sandboxProblems).toEqual(["sandbox: mounts 1 mode: must be ro (read-only) or rw (read-write)"]);
  });
});
