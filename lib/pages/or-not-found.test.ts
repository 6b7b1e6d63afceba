import { notFound as nextNotFound } from "next/navigation";
import { describe, expect, it } from "vitest";
import { AppError, notFound } from "../errors";
import { orNotFound } from "./or-not-found";

const fails = (error: Error) => Promise.reject(error);
const thrownBy = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    return error as Error & { digest?: string };
  }
};
// What Next's notFound() throws: Next renders the not-found page (and answers 404) for it.
const nextsNotFound = thrownBy(nextNotFound)!;

describe("orNotFound: what a page shows when its read fails", () => {
  it("passes what was read through", async () => {
    await expect(orNotFound(Promise.resolve(42))).resolves.toBe(42);
  });

  it.each([
    ["an unknown id", notFound("Run")],
    ["an id the service refuses as malformed", new AppError("validation", "attempt: must be an attempt number")],
  ])("%s: Next's not-found page (404)", async (_, error) => {
    const thrown = await orNotFound(fails(error)).catch((e: Error & { digest?: string }) => e);
    expect(thrown.digest).toBeDefined();
    expect(thrown.digest).toBe(nextsNotFound.digest);
  });

  it.each([
    ["a refusal", new AppError("forbidden", "leads only")],
    ["a bug", new Error("boom")],
  ])("%s: the error itself, for error.tsx", async (_, error) => {
    await expect(orNotFound(fails(error))).rejects.toBe(error);
  });
});
