import { describe, expect, it } from "vitest";
import { readableKey, visibleTextProblem } from "./visible-text";

describe("visibleTextProblem", () => {
  it.each([["\u200b"], ["\u200b\u200c\u200d\ufeff"], [" \t\u00a0\u3000"], ["\u3164\u2800"]])(
    "%j shows nothing",
    (text) => {
      expect(visibleTextProblem(text)).toBe("must contain a visible character");
    },
  );

  it.each([["abc\u202Egnp.exe"], ["\u2066x\u2069"], ["a\u202Ab"]])("%j reorders what is shown", (text) => {
    expect(visibleTextProblem(text)).toMatch(/^must not contain text-direction controls/);
  });

  it.each([["Billing"], ["x"], ["Платежи"], ["請求書"], ["👩‍💻"], ["a\u200bb"]])("%j is a name", (text) => {
    expect(visibleTextProblem(text)).toBeNull();
  });
});

describe("readableKey", () => {
  it("is the same for names a reader cannot tell apart", () => {
    const key = readableKey("Billing API");
    for (const alike of [
      "billing api",
      "  Billing   API ",
      "Billing\u200b API",
      "\ufeffBilling API",
      "Ｂｉｌｌｉｎｇ ＡＰＩ",
    ])
      expect(readableKey(alike), JSON.stringify(alike)).toBe(key);
    expect(readableKey("Billing APIs")).not.toBe(key);
    // A zero-width non-joiner or joiner shapes the word in Persian and Devanagari: another name.
    expect(readableKey("می\u200Cخواهم")).not.toBe(readableKey("میخواهم"));
    expect(readableKey("क्\u200Dष")).not.toBe(readableKey("क्ष"));
  });
});
