// A check's kinds, in the order a run page groups its rows. Apart from the schema (check-schema.ts), so a
// page that only shows rows does not take zod to the browser with it.
export const CHECK_KINDS = ["build", "test", "lint", "typecheck", "custom"] as const;
