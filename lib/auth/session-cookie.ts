// Setting and clearing the session cookie (httpOnly, SameSite=Lax, Secure over https).
import { cookies, headers } from "next/headers";
import { SESSION_COOKIE } from "./tokens";
import { clientAddressFrom } from "./client-address";

export async function clientAddress(): Promise<string | null> {
  return clientAddressFrom(await headers());
}

async function isHttps(): Promise<boolean> {
  const h = await headers();
  return h.get("x-forwarded-proto") === "https" || (h.get("origin") ?? "").startsWith("https://");
}

export async function setSessionCookie(token: string, expiresAt: Date): Promise<void> {
  (await cookies()).set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: await isHttps(),
    path: "/",
    expires: expiresAt,
  });
}

export async function clearSessionCookie(): Promise<string | null> {
  const jar = await cookies();
  const token = jar.get(SESSION_COOKIE)?.value ?? null;
  jar.delete(SESSION_COOKIE);
  return token;
}
