"use client";
// Bash highlighting for command fields (shiki, JavaScript regex engine, loaded on first use).
import { useEffect, useState } from "react";
import type { HighlighterCore } from "@shikijs/core";

let loading: Promise<HighlighterCore> | null = null;

function load(): Promise<HighlighterCore> {
  loading ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([
      import("@shikijs/core"),
      import("@shikijs/engine-javascript"),
    ]);
    return createHighlighterCore({
      themes: [import("@shikijs/themes/github-light"), import("@shikijs/themes/github-dark")],
      langs: [import("@shikijs/langs/bash")],
      engine: createJavaScriptRegexEngine(),
    });
  })();
  return loading;
}

export function useBashHighlighter(): HighlighterCore | null {
  const [highlighter, setHighlighter] = useState<HighlighterCore | null>(null);
  useEffect(() => {
    let isLive = true;
    load().then(
      (h) => isLive && setHighlighter(h),
      () => undefined,
    );
    return () => {
      isLive = false;
    };
  }, []);
  return highlighter;
}
