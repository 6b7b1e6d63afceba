// A delivery owner's answer to a partial run.
import { z } from "zod";
import { DECISION_CHOICES } from "./run-ending";

export const ZDecision = z.strictObject(
  {
    choice: z.enum(DECISION_CHOICES, { error: "must be one of accept, more-attempts, reject" }),
    attempts: z
      .number({ error: "must be a whole number from 1 to 5" })
      .int("must be a whole number from 1 to 5")
      .min(1, "grant at least 1 attempt")
      .max(5, "grant at most 5 attempts at a time")
      .optional(),
    // Why, in the decider's words: kept with the decision and shown with the run.
    reason: z.string({ error: "must be text" }).max(1000, "at most 1000 characters").optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown field: ${(issue.keys ?? []).join(", ")}` : "must be an object",
  },
);
