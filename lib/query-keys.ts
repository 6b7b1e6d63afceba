// One factory for every TanStack Query key, so invalidation is exact.
export const queryKeys = {
  run: (runId: string) => ["run", runId] as const,
  webhookDeliveries: (workId: string, webhookId: string) => ["webhook-deliveries", workId, webhookId] as const,
  board: (workId: string) => ["board", workId] as const,
};

export async function fetchJson<T>(url: string): Promise<T> {
  // "no-cache": the browser revalidates what it holds (If-None-Match), so an unchanged run or log page is a 304.
  const response = await fetch(url, { headers: { accept: "application/json" }, cache: "no-cache" });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? `${response.status} ${response.statusText}`);
  }
  return (await response.json()) as T;
}

export const logKeys = {
  chunk: (base: string, chunk: number, version: number | "final") => ["log-chunk", base, chunk, version] as const,
  meta: (base: string) => ["log-meta", base] as const,
  search: (base: string, q: string) => ["log-search", base, q] as const,
};
