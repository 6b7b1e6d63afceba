// The settings form's USD budget: a decimal amount typed as text, saved with the policy section it is in,
// and refused with the schema's own message when it is not a number.
import { describe, expect, it } from "vitest";
import { defaultSettings, settingsInSection } from "../gates/work-settings";
import { validateWorkForm, workFormFrom, workPatchFrom } from "./work-form";

describe("budgetUsd in the settings form", () => {
  it("keeps a fractional amount through the form when the policy section is saved", () => {
    const form = workFormFrom({ ...defaultSettings(), budgetUsd: 1.5 });
    expect(form.budgetUsd).toBe("1.5");
    expect(settingsInSection("policy")).toContain("budgetUsd");
    expect(workPatchFrom(form, settingsInSection("policy")).budgetUsd).toBe(1.5);
  });

  it("reads what is typed: 2.50 is 2.5, empty is no budget, words are refused naming the field", () => {
    const form = workFormFrom(defaultSettings());
    expect(workPatchFrom({ ...form, budgetUsd: " 2.50 " }).budgetUsd).toBe(2.5);
    expect(workPatchFrom({ ...form, budgetUsd: "  " }).budgetUsd).toBeNull();
    expect(validateWorkForm({ ...form, budgetUsd: "ten" }, 1).get("budgetUsd")).toBe("must be a number of US dollars");
    expect(validateWorkForm({ ...form, budgetUsd: "0" }, 1).get("budgetUsd")).toBe("more than 0");
  });
});
