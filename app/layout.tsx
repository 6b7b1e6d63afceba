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
          {/* The first Tab stop: past the header's links, to the page itself. Seen only when focused. */}
          <a
            href="#main"
            className={
              "sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md " +
              "focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:shadow-lg " +
              "dark:focus:bg-zinc-900"
            }
          >
            Skip to content
          </a>
          <SiteHeader user={user} signOut={signOutAction} />
          <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 outline-none sm:px-6 sm:py-8">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
