"use client";
// A time shown relative to now ("3 min ago"), exact on hover; re-rendered each minute.
import { useEffect, useState } from "react";
import { relativeTime } from "@/lib/format";

export function TimeAgo({ date }: { date: Date | string }) {
  const iso = typeof date === "string" ? date : date.toISOString();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time dateTime={iso} title={`${iso.replace("T", " ").slice(0, 19)} UTC`} suppressHydrationWarning>
      {relativeTime(iso, now)}
    </time>
  );
}
