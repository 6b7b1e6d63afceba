import type { Metadata } from "next";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { readPageWork } from "@/lib/pages/page-reads";
import { readBoard } from "@/lib/services/board";
import { BoardView } from "@/components/stages/board-view";
import { Breadcrumbs, EmptyState, PageHeader } from "@/components/ui/page-parts";

export async function generateMetadata({ params }: { params: Promise<{ workId: string }> }): Promise<Metadata> {
  return { title: `Board · ${(await orNotFound(readPageWork((await params).workId))).name}` };
}

export default async function BoardPage({ params }: { params: Promise<{ workId: string }> }) {
  const { workId } = await params;
  const actor = await getPageActor();
  const work = await orNotFound(readPageWork(workId));
  const board = await readBoard(actor, workId);
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Works", href: "/works" },
          { label: work.name, href: `/works/${work.id}` },
          { label: "Board" },
        ]}
      />
      <PageHeader title="Board" meta={<>Every task of {work.name} on a lane, by the stage it stands at.</>} />
      {board.lanes.length === 0 ? (
        <EmptyState title="No lanes yet">
          Add a lane in the Work&apos;s settings (Lanes) and put tasks on it.
        </EmptyState>
      ) : (
        <BoardView workId={work.id} initial={board} />
      )}
    </>
  );
}
