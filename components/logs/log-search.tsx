"use client";
// Search in the whole log: Enter for the next match, Shift+Enter for the previous, Escape to clear.
import { useState } from "react";
import { Button } from "../ui/button";
import { ChevronDownIcon, Spinner } from "../ui/icons";

type Props = {
  total: number | null;
  current: number;
  isSearching: boolean;
  onSearch: (q: string) => void;
  onStep: (delta: 1 | -1) => void;
};

export function LogSearch({ total, current, isSearching, onSearch, onStep }: Props) {
  const [text, setText] = useState("");
  return (
    <search className="flex items-center gap-1.5">
      <label htmlFor="log-search" className="sr-only">
        Search the log
      </label>
      <input
        id="log-search"
        type="search"
        value={text}
        placeholder="Search the log"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            if (total === null || text !== (e.currentTarget.dataset.searched ?? "")) {
              e.currentTarget.dataset.searched = text;
              onSearch(text);
            } else onStep(e.shiftKey ? -1 : 1);
          } else if (e.key === "Escape") {
            setText("");
            onSearch("");
          }
        }}
        className="w-44 rounded-md border border-zinc-700 bg-zinc-900 px-2.5 py-1.5 text-sm text-zinc-100 placeholder:text-zinc-400 focus:border-sky-500 focus:outline-none sm:w-64"
      />
      <span className="min-w-20 text-xs text-zinc-400 tabular-nums" aria-live="polite" data-testid="search-status">
        {isSearching ? <Spinner /> : total === null ? "" : total === 0 ? "no matches" : `${current + 1} of ${total}`}
      </span>
      <Button size="sm" variant="ghost" aria-label="Previous match" disabled={!total} onClick={() => onStep(-1)}>
        <ChevronDownIcon className="rotate-180" />
      </Button>
      <Button size="sm" variant="ghost" aria-label="Next match" disabled={!total} onClick={() => onStep(1)}>
        <ChevronDownIcon />
      </Button>
    </search>
  );
}
