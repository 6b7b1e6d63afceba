// Each layer's command says what null means for it when left blank (they once all said "no review").
import { describe, expect, it } from "vitest";
import { ZWorkCreate } from "./work-schema";

const WORK = { name: "W", repoUrl: "/tmp/repo" };

describe("a blank layer command", () => {
  it.each([
    ["reviewCommand", "must not be blank (use null for no review)"],
    ["mutationCommand", "must not be blank (use null for the repository's Stryker configuration)"],
    ["redTeamCommand", "must not be blank (use null for no red team)"],
    ["redTeamTestCommand", "must not be blank (use null for no red team)"],
  ])("%s: %s", (field, message) => {
    const parsed = ZWorkCreate.safeParse({ ...WORK, [field]: "  " });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([[field, message]]);
  });
});
