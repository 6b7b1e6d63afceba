"use client";
// Gates as files: paste or upload a YAML list or a Markdown runbook; every entry that cannot become a
// check is listed with its reason, and the rest is imported only when the person confirms. Export writes
// the current list in either shape.
import { useState } from "react";
import {
  parseGatesFile,
  toGatesMarkdown,
  toGatesYaml,
  type ImportResult,
  type ProofFileSettings,
} from "@/lib/gates/gates-file";
import type { Check } from "@/lib/gates/check-schema";
import { judgeImport } from "@/lib/gates/gates-file/import-rules";
import type { CheckSource } from "@/lib/gates/check-sources";
import type { MergePolicy } from "@/lib/gates/merge-policy";
import type { SandboxFileSettings } from "@/lib/gates/gates-file/sandbox";
import type { Lane } from "@/lib/gates/lanes";
import { Button } from "../ui/button";

type Props = {
  current: Check[] | null;
  onImport: (checks: Check[], mode: "replace" | "append") => void;
  // The Work's proof settings (exported with the checks; a file's own replace them on import).
  currentProof?: ProofFileSettings | null;
  onImportProof?: (proof: ProofFileSettings) => void;
  // The Work's check sources (exported too; a file's own replace them on import).
  currentCheckSources?: CheckSource[] | null;
  onImportCheckSources?: (sources: CheckSource[]) => void;
  // The Work's merge policy, likewise (a `merge:` block, a `## Merge` section).
  currentMerge?: MergePolicy;
  onImportMerge?: (merge: MergePolicy) => void;
  currentSandbox?: SandboxFileSettings;
  onImportSandbox?: (sandbox: SandboxFileSettings) => void;
  // The Work's lanes, likewise (a `lanes:` block, a `## Lanes` section).
  currentLanes?: Lane[];
  onImportLanes?: (lanes: Lane[]) => void;
};

function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  a.click();
  URL.revokeObjectURL(url);
}

export function GatesFilePanel({
  current,
  onImport,
  currentProof,
  onImportProof,
  currentCheckSources,
  onImportCheckSources,
  currentMerge,
  onImportMerge,
  currentSandbox,
  onImportSandbox,
  currentLanes,
  onImportLanes,
}: Props) {
  const [text, setText] = useState("");
  const [result, setResult] = useState<ImportResult | null>(null);
  const good = result?.entries.filter((e) => e.check).map((e) => e.check!) ?? [];
  const bad = result?.entries.filter((e) => !e.check) ?? [];
  // What saving each choice would refuse (the 20-check cap, duplicate ids…), said before the choice.
  const verdict = judgeImport(current ?? [], good);
  const proof = onImportProof ? (result?.proof ?? null) : null;
  const sources = onImportCheckSources ? (result?.checkSources ?? null) : null;
  const merge = onImportMerge ? (result?.merge ?? null) : null;
  const sandbox = onImportSandbox ? (result?.sandbox ?? null) : null;
  const lanes = onImportLanes ? (result?.lanes ?? null) : null;
  const settingNames = [
    proof && "proof settings",
    sources && "check sources",
    merge && "merge policy",
    sandbox && "sandbox settings",
    lanes && "lanes",
  ].filter((name): name is string => Boolean(name));
  const settings = {
    proof: currentProof ?? undefined,
    checkSources: currentCheckSources ?? undefined,
    merge: currentMerge,
    sandbox: currentSandbox,
    lanes: currentLanes,
  };
  const done = (mode: "replace" | "append" | "proof-only") => {
    if (mode !== "proof-only") onImport(good, mode);
    if (proof) onImportProof?.(proof);
    if (sources) onImportCheckSources?.(sources);
    if (merge) onImportMerge?.(merge);
    if (sandbox) onImportSandbox?.(sandbox);
    if (lanes) onImportLanes?.(lanes);
    setResult(null);
    setText("");
  };
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <label
          className={
            "cursor-pointer rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm " +
            "font-medium shadow-sm hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900"
          }
        >
          Upload a file…
          <input
            type="file"
            accept=".yml,.yaml,.md,.markdown,.txt"
            className="sr-only"
            onChange={async (e) => {
              const file = e.target.files?.[0];
              if (!file) return;
              const content = await file.text();
              setText(content);
              setResult(parseGatesFile(content));
            }}
          />
        </label>
        <span className="text-sm text-zinc-500 dark:text-zinc-400">or paste below.</span>
        <span className="ml-auto flex gap-2">
          <Button
            size="sm"
            disabled={!current}
            onClick={() => current && download("gates.yml", toGatesYaml(current, settings), "text/yaml")}
          >
            Export YAML
          </Button>
          <Button
            size="sm"
            disabled={!current}
            onClick={() => current && download("CHECKS.md", toGatesMarkdown(current, settings), "text/markdown")}
          >
            Export Markdown
          </Button>
        </span>
      </div>
      <label htmlFor="gates-file-text" className="sr-only">
        Gates file
      </label>
      <textarea
        id="gates-file-text"
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={6}
        placeholder={"gates:\n  - run: npm test\n    timeout: 15m\n  - npm run lint"}
        className={
          "block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-xs " +
          "shadow-sm dark:border-zinc-700 dark:bg-zinc-950"
        }
      />
      <Button onClick={() => setResult(parseGatesFile(text))} disabled={!text.trim()}>
        Read the file
      </Button>
      {result ? (
        <section
          className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800"
          aria-label="Import preview"
        >
          {result.fileProblem ? (
            <p role="alert" className="text-rose-700 dark:text-rose-300">
              {result.fileProblem}
            </p>
          ) : null}
          {(result.fileNotes ?? []).map((note) => (
            <p key={note} className="text-rose-800 dark:text-rose-300">
              ✗ {note}
            </p>
          ))}
          <p className="mb-2 font-medium">
            {result.format === "markdown" ? "Markdown runbook" : "YAML list"}: {good.length} check
            {good.length === 1 ? "" : "s"} read, {bad.length} cannot be imported.
          </p>
          <ul className="space-y-1">
            {result.entries.map((e, i) => (
              <li
                key={i}
                id={`import-entry-${i}`}
                className={e.check ? "text-emerald-800 dark:text-emerald-300" : "text-rose-800 dark:text-rose-300"}
              >
                {e.check ? "✓" : "✗"} <span className="font-medium">{e.label}</span>
                {e.check ? (
                  <span className="text-zinc-500 dark:text-zinc-400">
                    {" "}
                    → {e.check.id} ({e.check.kind}
                    {e.check.required ? ", required" : ""}
                    {e.check.use ? `, built-in ${e.check.use}` : ""}
                    {e.check.executor === "agent" ? ", run by the agent" : ""})
                  </span>
                ) : (
                  <span>: {e.problems.join("; ")}</span>
                )}
              </li>
            ))}
          </ul>
          {onImportProof && (proof || result.proofProblems?.length) ? (
            <section className="mt-2" aria-label="Proof settings in the file">
              {proof ? (
                <p className="text-emerald-800 dark:text-emerald-300">
                  ✓ Proof settings: {Object.keys(proof).join(", ")} (replace the Work&apos;s on import)
                </p>
              ) : null}
              {(result.proofProblems ?? []).map((p) => (
                <p key={p} className="text-rose-800 dark:text-rose-300">
                  ✗ {p}
                </p>
              ))}
            </section>
          ) : null}
          {onImportCheckSources && (sources || result.checkSourceProblems?.length) ? (
            <section className="mt-2" aria-label="Check sources in the file">
              {sources ? (
                <p className="text-emerald-800 dark:text-emerald-300">
                  ✓ Check sources: {sources.map((c) => c.name).join(", ") || "none"} (replace the Work&apos;s on import)
                </p>
              ) : null}
              {(result.checkSourceProblems ?? []).map((p) => (
                <p key={p} className="text-rose-800 dark:text-rose-300">
                  ✗ {p}
                </p>
              ))}
            </section>
          ) : null}
          {merge || result.mergeProblems?.length ? (
            <section className="mt-2" aria-label="Merge policy in the file">
              {merge ? (
                <p className="text-emerald-800 dark:text-emerald-300">
                  ✓ Merge policy: method {merge.method}, green gate{" "}
                  {merge.requireGreenGate ? "required" : "not required"}, auto-merge {merge.autoMerge ? "on" : "off"}{" "}
                  (replaces the Work&apos;s on import)
                </p>
              ) : null}
              {(result.mergeProblems ?? []).map((p) => (
                <p key={p} className="text-rose-800 dark:text-rose-300">
                  ✗ {p}
                </p>
              ))}
            </section>
          ) : null}
          {onImportSandbox && (sandbox || result.sandboxProblems?.length) ? (
            <section className="mt-2" aria-label="Sandbox settings in the file">
              {sandbox ? (
                <p className="text-emerald-800 dark:text-emerald-300">
                  ✓ Sandbox: {Object.keys(sandbox).join(", ")} (replace the Work&apos;s on import)
                </p>
              ) : null}
              {(result.sandboxProblems ?? []).map((p) => (
                <p key={p} className="text-rose-800 dark:text-rose-300">
                  ✗ {p}
                </p>
              ))}
            </section>
          ) : null}
          {onImportLanes && (lanes || result.laneProblems?.length) ? (
            <section className="mt-2" aria-label="Lanes in the file">
              {lanes ? (
                <p className="text-emerald-800 dark:text-emerald-300">
                  ✓ Lanes: {lanes.map((l) => `${l.id} (${l.stages.map((s) => s.id).join(" → ")})`).join(", ")} (replace
                  the Work&apos;s on import)
                </p>
              ) : null}
              {(result.laneProblems ?? []).map((p) => (
                <p key={p} className="text-rose-800 dark:text-rose-300">
                  ✗ {p}
                </p>
              ))}
            </section>
          ) : null}
          {good.length === 0 && settingNames.length > 0 ? (
            <div className="mt-3 flex flex-wrap gap-2">
              <Button variant="primary" onClick={() => done("proof-only")}>
                Import the {settingNames.join(" and ")}
              </Button>
              <Button variant="ghost" onClick={() => setResult(null)}>
                Cancel
              </Button>
            </div>
          ) : null}
          {good.length > 0 ? <ImportRefusals verdict={verdict} entryOf={entryIndexOf(result, good)} /> : null}
          {good.length > 0 ? (
            <div className="mt-3 flex flex-wrap gap-2">
              <Button variant="primary" disabled={verdict.replace.problems.length > 0} onClick={() => done("replace")}>
                Replace the list with {good.length} check{good.length === 1 ? "" : "s"}
              </Button>
              <Button disabled={verdict.append.problems.length > 0} onClick={() => done("append")}>
                Add {good.length} to the list
              </Button>
              <Button variant="ghost" onClick={() => setResult(null)}>
                Cancel
              </Button>
            </div>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}

// The preview entry (its element id) that a save problem's path points at, for the imported checks.
function entryIndexOf(result: ImportResult, good: Check[]): (listIndex: number) => number | null {
  const indexes = result.entries.flatMap((e, i) => (e.check ? [i] : []));
  return (listIndex) => (listIndex < good.length ? (indexes[listIndex] ?? null) : null);
}

// Why a choice would be refused on save, each problem linked to the entry it is about when there is one.
function ImportRefusals({
  verdict,
  entryOf,
}: {
  verdict: ReturnType<typeof judgeImport>;
  entryOf: (listIndex: number) => number | null;
}) {
  const choices = [
    { name: "Replace", problems: verdict.replace.problems, offset: 0 },
    {
      name: "Add",
      problems: verdict.append.problems,
      offset: verdict.append.checks.length - verdict.replace.checks.length,
    },
  ].filter((c) => c.problems.length > 0);
  if (choices.length === 0) return null;
  return (
    <div
      role="alert"
      aria-label="Refused on save"
      className="mt-3 rounded-md bg-rose-50 px-3 py-2 text-rose-900 dark:bg-rose-950 dark:text-rose-100"
    >
      {choices.map((choice) => (
        <div key={choice.name}>
          <p className="font-medium">{choice.name} would be refused on save:</p>
          <ul className="ml-5 list-disc">
            {choice.problems.map((p) => {
              const at = /^checkDefaults\.(\d+)/.exec(p.path);
              const entry = at ? entryOf(Number(at[1]) - choice.offset) : null;
              return (
                <li key={p.path + p.message} className="break-words">
                  {entry === null ? (
                    <span>
                      {p.path}: {p.message}
                    </span>
                  ) : (
                    <a className="underline" href={`#import-entry-${entry}`}>
                      {p.path}: {p.message}
                    </a>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </div>
  );
}
