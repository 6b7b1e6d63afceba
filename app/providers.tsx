"use client";
// Client-side state for the few live parts (TanStack Query), and the guard on the browser's Back and Forward
// (installed here, at the root, so it hears them before the router: components/layout/history-guard.ts).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { installHistoryGuard } from "@/components/layout/history-guard";

export function Providers({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 1000, refetchOnWindowFocus: true, retry: 1 } } }),
  );
  useEffect(installHistoryGuard, []);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
