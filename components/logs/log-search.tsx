"use client";
// Search in the whole log as you type (after a short pause); Enter for the next match, Shift+Enter for
// the previous, Escape to clear. The log panel is dark in both themes, so the controls are light in both.
import { useEffect, useRef, useState } from "react";
import { ChevronDownIcon, Spinner } from "../ui/icons";

type Props = {
  total: number | null;
  current: number;
  isSearching: boolean;
  onSearch: (q: string) => void;
  onStep: (delta: 1 | -1) => void;
};

// Long enough not to search on every keystroke of a word, short enough to feel immediate.
const TYPING_PAUSE_MS = 250;

const stepButton =
  "inline-flex size-7 items-center justify-center rounded-md border border-zinc-600 text-zinc-100 " +
  "hover:bg-zinc-800 disabled:cursor-not-allowed disabled:border-zinc-800 disabled:text-zinc-500";

export function LogSearch({ total, current, isSearching, onSearch, onStep }: Props) {
  const [text, setText] = useState("");
  const searched = useRef("");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const searchNow = (q: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    searched.current = q;
    onSearch(q);
  };
  useEffect(() => () => (timer.current ? clearTimeout(timer.current) : undefined), []);
  return (
    <search className="flex flex-wrap items-center gap-1.5">
      <label htmlFor="log-search" className="sr-only">
        Search the log
      </label>
      <input
        id="log-search"
        type="search"
        value={text}
        placeholder="Search the log"
        aria-describedby="log-search-hint"
        onChange={(e) => {
          const q = e.target.value;
          setText(q);
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => searchNow(q), q === "" ? 0 : TYPING_PAUSE_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            if (text !== searched.current) searchNow(text);
            else onStep(e.shiftKey ? -1 : 1);
          } else if (e.key === "Escape") {
            setText("");
            searchNow("");
          }
        }}
        className={
          "w-44 rounded-md border border-zinc-600 bg-zinc-900 px-2.5 py-1.5 text-sm " +
          "text-zinc-100 placeholder:text-zinc-400 focus:border-sky-500 " +
          "focus:outline-none sm:w-64"
        }
      />
      <span className="min-w-20 text-xs text-zinc-300 tabular-nums" aria-live="polite" data-testid="search-status">
        {isSearching ? <Spinner /> : total === null ? "" : total === 0 ? "no matches" : `${current + 1} of ${total}`}
      </span>
      <button
        type="button"
        className={stepButton}
        aria-label="Previous match"
        disabled={!total}
        onClick={() => onStep(-1)}
      >
        <ChevronDownIcon className="rotate-180" />
      </button>
      <button type="button" className={stepButton} aria-label="Next match" disabled={!total} onClick={() => onStep(1)}>
        <ChevronDownIcon />
      </button>
      <span id="log-search-hint" className="text-xs text-zinc-400">
        Enter: next match · Shift+Enter: previous
      </span>
    </search>
  );
}
