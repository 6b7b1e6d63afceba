"use client";
// The Work's assets: files a lead uploads for the checks ({{assets_dir}}, read-only in each run). Uploads
// and deletes go straight to the API (each is saved and audited at once, outside the settings' Save).
import { useState } from "react";
import { Button } from "../ui/button";
import { EmptyState, rowListClass } from "../ui/page-parts";

export type AssetRow = { name: string; size: number; sha256: string; createdAt: string };

const KB = 1024;
const sizeOf = (n: number) =>
  n < KB ? `${n} B` : n < KB * KB ? `${(n / KB).toFixed(1)} KB` : `${(n / KB / KB).toFixed(1)} MB`;

async function messageOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  return body?.error?.message ?? `the server answered ${response.status}`;
}

export function WorkAssetsPanel({ workId, initial }: { workId: string; initial: AssetRow[] }) {
  const [assets, setAssets] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const base = `/api/works/${encodeURIComponent(workId)}/assets`;

  const upload = async (files: FileList) => {
    setBusy(true);
    setProblem(null);
    for (const file of Array.from(files)) {
      const response = await fetch(`${base}?name=${encodeURIComponent(file.name)}`, { method: "POST", body: file });
      if (!response.ok) {
        setProblem(`${file.name}: ${await messageOf(response)}`);
        break;
      }
      const stored = (await response.json()) as AssetRow;
      setAssets((list) =>
        [...list.filter((a) => a.name !== stored.name), stored].sort((a, b) => a.name.localeCompare(b.name)),
      );
    }
    setBusy(false);
  };

  const remove = async (name: string) => {
    setProblem(null);
    const response = await fetch(`${base}/${encodeURIComponent(name)}`, { method: "DELETE" });
    if (response.ok) setAssets((list) => list.filter((a) => a.name !== name));
    else setProblem(`${name}: ${await messageOf(response)}`);
  };

  return (
    <div className="space-y-3">
      <label
        className={
          "inline-block cursor-pointer rounded-md border border-zinc-300 bg-white px-3 py-1.5 " +
          "text-sm font-medium shadow-sm hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900"
        }
      >
        {isBusy ? "Uploading…" : "Upload files…"}
        <input
          type="file"
          multiple
          className="sr-only"
          disabled={isBusy}
          onChange={(e) => {
            if (e.target.files?.length) void upload(e.target.files);
            e.target.value = "";
          }}
        />
      </label>
      {problem ? (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {problem}
        </p>
      ) : null}
      {assets.length === 0 ? (
        <EmptyState title="No assets yet">
          Files uploaded here are given to every run&apos;s checks, read-only.
        </EmptyState>
      ) : (
        <ul aria-label="Assets" className={rowListClass}>
          {assets.map((a) => (
            <li key={a.name} className="flex flex-wrap items-center justify-between gap-3 px-4 py-2 text-sm">
              <span>
                <code className="font-mono">{a.name}</code>{" "}
                <span className="text-zinc-500 dark:text-zinc-400">{sizeOf(a.size)}</span>
              </span>
              <Button size="sm" variant="danger" onClick={() => remove(a.name)} aria-label={`Delete ${a.name}`}>
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
