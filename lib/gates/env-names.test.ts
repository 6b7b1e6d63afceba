import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ENV_NAME_PATTERN, ZEnvName, ZEnvNameList, platformOwnedReason } from "./env-names";
import { toFieldIssues, type FieldIssue } from "./field-issues";

function issuesOf(schema: z.ZodType, value: unknown): FieldIssue[] | null {
  const result = schema.safeParse(value);
  return result.success ? null : toFieldIssues(result.error);
}

const PATTERN_RULE =
  "an environment variable name: letters, digits and _, not starting with a digit, at most 128 characters";
const VALUES_RULE = "names only, never values: list NAME and store its value as a Work secret";

describe("platformOwnedReason", () => {
  it.each([
    // The SPEC's configuration: database URL, auth secrets and tokens, anything GATEHOUSE_*.
    ["DATABASE_URL", /platform configuration/],
    ["GATEHOUSE_BOOTSTRAP_TOKEN", /owned by Gatehouse itself/],
    ["GATEHOUSE_ADMIN_EMAIL", /owned by Gatehouse itself/],
    ["GATEHOUSE_ADMIN_PASSWORD", /owned by Gatehouse itself/],
    ["GATEHOUSE_DATA_DIR", /owned by Gatehouse itself/],
    ["GATEHOUSE_LOG_CAP_MB", /owned by Gatehouse itself/],
    ["GATEHOUSE_CONCURRENCY", /owned by Gatehouse itself/],
    ["GATEHOUSE_DEMO", /owned by Gatehouse itself/],
    ["GATEHOUSE_SOMETHING_NEW", /owned by Gatehouse itself/],
    ["PORT", /platform configuration/],
    // Other database, loader and shell start-up configuration.
    ["DIRECT_URL", /platform configuration/],
    ["SHADOW_DATABASE_URL", /platform configuration/],
    ["PGPASSWORD", /platform configuration/],
    ["PGHOST", /platform configuration/],
    ["NODE_OPTIONS", /platform configuration/],
    ["LD_PRELOAD", /platform configuration/],
    ["LD_LIBRARY_PATH", /platform configuration/],
    ["BASH_ENV", /platform configuration/],
    ["ENV", /platform configuration/],
    ["PROMPT_COMMAND", /platform configuration/],
    ["NEXT_PUBLIC_URL", /server configuration/],
    ["PRISMA_QUERY_ENGINE_LIBRARY", /server configuration/],
    ["__NEXT_PRIVATE_ORIGIN", /server configuration/],
  ])("refuses %s", (name, kind) => {
    const reason = platformOwnedReason(name);
    expect(reason).not.toBeNull();
    expect(reason).toMatch(kind);
    expect(reason).toContain(name);
    expect(reason).toMatch(/never passed to checks/);
  });

  it.each([
    "database_url",
    "Database_Url",
    "gatehouse_bootstrap_token",
    "Gatehouse_Admin_Password",
    "ld_preload",
    "next_public_x",
  ])("refuses %s whatever its case", (name) => {
    expect(platformOwnedReason(name)).not.toBeNull();
  });

  it.each([
    "NPM_TOKEN",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "API_KEY",
    "MY_DATABASE_URL",
    "DATABASE_URL_TEST",
    "GATEHOUSEKEEPER",
    "XGATEHOUSE_TOKEN",
    "NEXTCLOUD_TOKEN",
    "NODE_ENV",
    "PORTAL",
  ])("allows %s", (name) => {
    expect(platformOwnedReason(name)).toBeNull();
  });
});

describe("ZEnvName", () => {
  it.each(["A", "_", "_A", "a", "api_key", "A1", "MY_VAR_2", "A".repeat(128)])("accepts %j", (name) => {
    expect(ZEnvName.parse(name)).toBe(name);
    expect(ENV_NAME_PATTERN.test(name)).toBe(true);
  });

  it.each([
    ["the empty string", ""],
    ["a leading digit", "1A"],
    ["a dash", "MY-VAR"],
    ["a space", "MY VAR"],
    ["a dot", "my.var"],
    ["a '$'", "$HOME"],
    ["129 characters", "A".repeat(129)],
    ["a trailing newline", "A\n"],
  ])("refuses %s", (_label, name) => {
    expect(issuesOf(ZEnvName, name)).toEqual([{ path: "", message: PATTERN_RULE }]);
  });

  it.each(["API_KEY=sk-123", "A=", "=value", "DATABASE_URL=postgres://x", "A=B=C"])(
    "refuses %j: names only, never values",
    (entry) => {
      // A single, clear issue: the value is not treated as a malformed or platform-owned name as well.
      expect(issuesOf(ZEnvName, entry)).toEqual([{ path: "", message: VALUES_RULE }]);
    },
  );

  it.each(["DATABASE_URL", "GATEHOUSE_BOOTSTRAP_TOKEN", "gatehouse_admin_password"])(
    "refuses the platform-owned %s with its reason",
    (name) => {
      expect(issuesOf(ZEnvName, name)).toEqual([{ path: "", message: platformOwnedReason(name) }]);
    },
  );

  it.each([null, 1, ["A"]])("refuses non-text %j", (value) => {
    expect(issuesOf(ZEnvName, value)).toEqual([{ path: "", message: "must be text" }]);
  });
});

describe("ZEnvNameList", () => {
  it.each([[[]], [["A"]], [["A", "B", "C"]]])("accepts %j", (names) => {
    expect(ZEnvNameList.parse(names)).toEqual(names);
  });

  it("accepts 50 names and refuses 51", () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `VAR_${i}`);
    expect(issuesOf(ZEnvNameList, names(50))).toBeNull();
    expect(issuesOf(ZEnvNameList, names(51))).toEqual([{ path: "", message: "at most 50 names" }]);
  });

  it("refuses a duplicate name at its second position", () => {
    expect(issuesOf(ZEnvNameList, ["A", "B", "A"])).toEqual([{ path: "2", message: "A is listed twice" }]);
  });

  it("reports each further repeat", () => {
    expect(issuesOf(ZEnvNameList, ["A", "A", "A"])!.map((i) => i.path)).toEqual(["1", "2"]);
  });

  it("treats names as case-sensitive, like the environment does", () => {
    expect(issuesOf(ZEnvNameList, ["Token", "TOKEN"])).toBeNull();
  });

  it("reports duplicates together with the other errors of the list", () => {
    const issues = issuesOf(ZEnvNameList, ["A", "DATABASE_URL", "A"])!;
    expect(issues.map((i) => i.path).sort()).toEqual(["1", "2"]);
    expect(issues.find((i) => i.path === "2")!.message).toBe("A is listed twice");
  });

  it("points each bad name at its index", () => {
    expect(issuesOf(ZEnvNameList, ["OK", "X=1", "9X"])).toEqual([
      { path: "1", message: VALUES_RULE },
      { path: "2", message: PATTERN_RULE },
    ]);
  });

  it.each(["API_KEY", { API_KEY: "x" }, null])("refuses %j in place of a list", (value) => {
    expect(issuesOf(ZEnvNameList, value)).toEqual([{ path: "", message: "must be a list of variable names" }]);
  });
});
