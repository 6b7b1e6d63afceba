"use client";
// A Work's board: a column per stage of a lane, a card per task with its key, title, attempts and gate,
// stuck cards and done ones (the last stage accepted) marked. Live: polled briskly while a run is queued or
// running, slowly otherwise; by lane.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { BoardLane } from "@/lib/gates/board";
import { fetchJson, queryKeys } from "@/lib/query-keys";
import { GateChip } from "../checks/gate-chip";
import { attemptsText, stageLook } from "./stage-state";

type Board = { lanes: BoardLane[] };

const isMoving = (board: Board) =>
  board.lanes.some((l) => l.columns.some((c) => c.cards.some((k) => k.status === "queued" || k.status === "running")));

export function BoardView({ workId, initial }: { workId: string; initial: Board }) {
  const { data } = useQuery({
    queryKey: queryKeys.board(workId),
    queryFn: () => fetchJson<Board>(`/api/works/${workId}/board`),
    initialData: initial,
    // A board has no end: every 2 s while a stage run is queued or running, every 5 s otherwise (a run
    // dispatched elsewhere shows up).
    refetchInterval: (q) => (q.state.data && isMoving(q.state.data) ? 2000 : 5000),
  });
  const [laneId, setLaneId] = useState(initial.lanes[0]?.id ?? "");
  const lane = data.lanes.find((l) => l.id === laneId) ?? data.lanes[0];
  if (!lane) return null;
  return (
    <div>
      {data.lanes.length > 1 ? (
        <label className="mb-4 flex items-center gap-2 text-sm">
          Lane
          <select
            value={lane.id}
            onChange={(e) => setLaneId(e.target.value)}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          >
            {data.lanes.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <section aria-label={`Board of lane ${lane.name}`} className="flex flex-col gap-4 sm:flex-row sm:overflow-x-auto">
        {lane.columns.map((column) => (
          <section
            key={column.id}
            aria-label={`Stage ${column.name}`}
            className="min-w-0 rounded-md border border-zinc-200 bg-white p-3 sm:min-w-64 sm:max-w-sm sm:flex-1 dark:border-zinc-800 dark:bg-zinc-900"
          >
            <h2 className="mb-2 text-sm font-semibold">
              {column.name}{" "}
              <span className="font-normal text-zinc-600 dark:text-zinc-400">({column.cards.length})</span>
            </h2>
            <ul className="space-y-2">
              {column.cards.map((card) => {
                const look = stageLook(card.state);
                return (
                  <li key={card.taskId} className={`rounded-md border border-l-4 p-2 text-sm ${look.className}`}>
                    <Link href={`/tasks/${card.taskId}`} className="font-mono text-xs font-semibold underline">
                      {card.key}
                    </Link>
                    <p className="mt-0.5 break-words">{card.title}</p>
                    <div className="mt-1 flex flex-wrap items-center gap-2 text-xs">
                      {card.state === "stuck" || card.state === "done" ? (
                        <span className="font-semibold uppercase">{look.label}</span>
                      ) : null}
                      <span>{card.state === "done" ? `accepted on attempt ${card.attempts}` : attemptsText(card)}</span>
                      {card.gate ? <GateChip gate={card.gate} ending={null} size="sm" /> : null}
                    </div>
                  </li>
                );
              })}
              {column.cards.length === 0 ? (
                <li className="text-xs text-zinc-600 dark:text-zinc-400">No task here</li>
              ) : null}
            </ul>
          </section>
        ))}
      </section>
    </div>
  );
}
