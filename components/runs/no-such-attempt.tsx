import { NotFoundPanel } from "@/components/ui/page-parts";

// An attempt number the run does not have ("9", "abc"), as an attempt's pages and the run page's ?attempt= name it.
export function NoSuchAttempt({ runId, n }: { runId: string; n: string }) {
  return (
    <NotFoundPanel
      title="No such attempt"
      text={`This run has no attempt ${n}. Its page lists the attempts it made.`}
      href={`/runs/${runId}`}
      linkLabel="Open the run"
    />
  );
}
