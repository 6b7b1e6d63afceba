"use client";
import { useParams } from "next/navigation";
import { NoSuchAttempt } from "@/components/runs/no-such-attempt";

// An attempt number the run does not have (the run itself is there: ./layout.tsx).
export default function NotFound() {
  const { runId, n } = useParams<{ runId: string; n: string }>();
  return <NoSuchAttempt runId={runId} n={n} />;
}
