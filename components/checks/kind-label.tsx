// Check kinds and provenance as small labels.
import type { CheckSource } from "@/lib/gates/merge-checks";
import { Pill } from "../ui/page-parts";

export function KindLabel({ kind }: { kind: string }) {
  return <Pill>{kind}</Pill>;
}

const SOURCE: Record<CheckSource, { label: string; tone: "zinc" | "sky" | "violet"; title: string }> = {
  inherited: { label: "inherited", tone: "zinc", title: "from the Work's defaults, untouched" },
  overridden: { label: "overridden", tone: "sky", title: "the task replaces the Work's default with this id" },
  added: { label: "added", tone: "violet", title: "a task-only check, after the defaults" },
};

export function SourceLabel({ source }: { source: CheckSource }) {
  const look = SOURCE[source];
  return (
    <Pill tone={look.tone} title={look.title}>
      {look.label}
    </Pill>
  );
}

export function RequiredLabel({ required }: { required: boolean }) {
  return required ? (
    <span className="text-xs font-semibold text-zinc-800 dark:text-zinc-200">Required</span>
  ) : (
    <span className="text-xs text-zinc-500 dark:text-zinc-400">Reports only</span>
  );
}
