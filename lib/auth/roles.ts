// Roles per Work, ordered: each includes what the one before may do. Admins may do everything.
export const ROLES = ["viewer", "engineer", "lead"] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 1, engineer: 2, lead: 3 };

export function roleAllows(held: Role | null, needed: Role): boolean {
  return held !== null && RANK[held] >= RANK[needed];
}

export const ROLE_CAN: Record<Role, string> = {
  viewer: "read runs and logs",
  engineer: "dispatch, start attempts, cancel runs and edit task overrides",
  lead: "edit the Work's defaults, policy, attempt budget, agent command and secrets, and answer decisions",
};

// "a viewer", "an engineer", "a lead": a role as a sentence names a person holding it.
export function aRole(role: Role): string {
  return `${role === "engineer" ? "an" : "a"} ${role}`;
}
