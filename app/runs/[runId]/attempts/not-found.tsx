"use client";
import { useParams } from "next/navigation";
import { NotFoundPanel } from "@/components/ui/page-parts";

// An attempt number the run does not have (the run itself is there: ./layout.tsx).
export default function NotFound() {
  const { runId, n } = useParams<{ runId: string; n: string }>();
  return (
    <NotFoundPanel
      title="No such attempt"
      text={`This run has no attempt ${n}. Its page lists the attempts it made.`}
      href={`/runs/${runId}`}
      linkLabel="Open the run"
    />
  );
}
