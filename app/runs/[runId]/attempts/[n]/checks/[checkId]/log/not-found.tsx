"use client";
import { useParams } from "next/navigation";
import { NotFoundPanel } from "@/components/ui/page-parts";

// A check the attempt does not have, or one without a log (the run and the attempt are there: the layouts
// above say when they are not).
export default function NotFound() {
  const { runId, n, checkId } = useParams<{ runId: string; n: string; checkId: string }>();
  return (
    <NotFoundPanel
      title="No such check"
      text={
        checkId === "_agent"
          ? `Attempt ${n} of this run has no agent log: no agent has run in it.`
          : `Attempt ${n} of this run has no check “${checkId}” with a log. A skipped check, or one the agent ` +
            "reported, writes none."
      }
      href={`/runs/${runId}?attempt=${n}#checks`}
      linkLabel={`See attempt ${n}'s checks`}
    />
  );
}
