// Who is acting: a signed-in user (by session or API token) or Gatehouse itself (start-up, demo).
export type Actor = {
  userId: string | null;
  label: string;
  email: string | null;
  isAdmin: boolean;
  via: "session" | "token" | "system";
  tokenId: string | null;
};

export const SYSTEM_ACTOR: Actor = {
  userId: null,
  label: "Gatehouse",
  email: null,
  isAdmin: true,
  via: "system",
  tokenId: null,
};
