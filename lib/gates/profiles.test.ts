import { describe, expect, it } from "vitest";
import { hasLayer, profilesWith } from "./profiles";

describe("verification profiles", () => {
  it.each([
    ["lite", []],
    ["standard", ["evidence", "review"]],
    ["full", ["evidence", "review", "red-team", "mutation"]],
  ] as const)("%s runs %j", (profile, layers) => {
    const all = ["evidence", "review", "red-team", "mutation"] as const;
    expect(all.filter((layer) => hasLayer(profile, layer))).toEqual(layers);
  });

  it("lists the profiles that run a layer", () => {
    expect(profilesWith("review")).toEqual(["standard", "full"]);
    expect(profilesWith("mutation")).toEqual(["full"]);
  });
});
