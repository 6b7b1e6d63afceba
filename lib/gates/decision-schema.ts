// A delivery owner's answer to a partial run.
import { z } from "zod";
import { DECISION_CHOICES } from "./run-ending";

const STAGE_DECISION_CHOICES = ["skip-stage", "send-back"] as const;

export const ZDecision = z.strictObject(
  {
    // A stuck stage (a partial run of a task on a lane) also takes skip-stage and send-back.
    choice: z.enum([...DECISION_CHOICES, ...STAGE_DECISION_CHOICES], {
      error: "must be one of accept, more-attempts, reject, skip-stage, send-back",
    }),
    // send-back: the earlier stage the task goes back to.
    stage: z.string({ error: "must be text: a stage id" }).max(41, "at most 41 characters").optional(),
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
