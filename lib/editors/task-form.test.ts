// The task editor's title and description: carried through the form into the patch the save sends, and
// refused as you type with the schema's own message for the field, as the server would refuse them.
import { describe, expect, it } from "vitest";
import { taskFormFrom, taskPatchFrom, validateTaskForm, type TaskSettings } from "./task-form";

const settings: TaskSettings = {
  title: "Add a health endpoint",
  description: "GET /health answers 200.",
  acceptanceChecks: null,
  maxGateAttempts: null,
  agentCommand: null,
  lane: null,
  version: 3,
};

describe("a task's title and description in the editor", () => {
  it("goes through the form into the patch unchanged, the other fields as before", () => {
    const form = taskFormFrom(settings);
    expect(form).toMatchObject({ title: "Add a health endpoint", description: "GET /health answers 200." });
    expect(taskPatchFrom({ ...form, title: "Add /healthz", description: "" })).toEqual({
      title: "Add /healthz",
      description: "",
      acceptanceChecks: null,
      maxGateAttempts: null,
      agentCommand: null,
      lane: null,
    });
  });

  it.each<[string, Partial<{ title: string; description: string }>, Record<string, string>]>([
    ["a new title", { title: "Add /healthz" }, {}],
    ["no description", { description: "" }, {}],
    ["an empty title", { title: "" }, { title: "required: 1–200 characters" }],
    ["a title of spaces", { title: "   " }, { title: "required: 1–200 characters" }],
    ["a title too long", { title: "x".repeat(201) }, { title: "at most 200 characters" }],
    ["a description too long", { description: "x".repeat(20_001) }, { description: "at most 20000 characters" }],
  ])("%s", (_case, patch, expected) => {
    const { errors } = validateTaskForm({ ...taskFormFrom(settings), ...patch }, settings.version, []);
    expect(Object.fromEntries(errors)).toEqual(expected);
  });
});
