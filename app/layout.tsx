import type { Metadata, Viewport } from "next";
import { SiteHeader } from "@/components/layout/site-header";
import { findSessionActor } from "@/lib/auth/page-actor";
import { Providers } from "./providers";
import { signOutAction } from "./signin/actions";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Gatehouse", template: "%s · Gatehouse" },
  description: "Decides when work done by coding agents is really done.",
  // Served from public/ without sign-in, like robots.txt (which keeps the dashboard out of search engines).
  manifest: "/manifest.webmanifest",
  icons: { icon: [{ url: "/icon.svg", type: "image/svg+xml" }], apple: "/icon-192.png" },
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#09090b" },
  ],
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const actor = await findSessionActor();
  const user = actor?.email ? { name: actor.label, email: actor.email, isAdmin: actor.isAdmin } : null;
  return (
    <html lang="en">
      <body className="min-h-dvh font-sans">
        <Providers>
          <SiteHeader user={user} signOut={signOutAction} />
          <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
