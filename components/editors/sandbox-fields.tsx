"use client";
// The Work's sandbox: whether the agent step and the checks reach the network, extra paths bound into the
// sandbox (read-only or read-write), and which refs of the repository a task's checkout may see besides
// its own branch and the base commit's history.
import { MAX_SANDBOX_MOUNTS, MOUNT_MODES, NETWORK_MODES } from "@/lib/gates/sandbox-settings";
import type { MountForm, WorkForm } from "@/lib/editors/work-form";
import { inputBorderClass } from "../ui/action-form";
import { Button } from "../ui/button";
import { editorInputClass, FieldError } from "./field-parts";
import { GlobList, listError } from "./proof-fields";

type Props = { form: WorkForm; onChange: (patch: Partial<WorkForm>) => void; errors: Map<string, string> };

const input = `${editorInputClass} ${inputBorderClass} aria-[invalid=true]:border-rose-500`;
const NETWORK_EXPLAINED = {
  on: "Reaches the network like the server does (an agent must reach its model's API; tests reach local services).",
  off: "Its own network namespace with loopback only: nothing outside the sandbox is reachable.",
} as const;
const MODE_LABEL = { ro: "read-only", rw: "read-write" } as const;
// The chosen mode's card is blue, the other plain (as the checks policy's).
const CARD = "flex cursor-pointer gap-3 rounded-md border p-3 text-sm";
const CHOSEN = "border-sky-500 bg-sky-50 dark:bg-sky-950/40";
const NOT_CHOSEN = "border-zinc-200 dark:border-zinc-800";
const ROW = [
  "grid gap-3 rounded-lg border border-zinc-200 bg-white p-3",
  "sm:grid-cols-[minmax(0,1fr)_10rem_auto] sm:items-start dark:border-zinc-800 dark:bg-zinc-900",
].join(" ");
const REFS_HINT = [
  "One ref glob per line (refs/tags/v*, release/*): refs a task's checkout may see besides its own branch",
  "and the base commit's history. Empty: none.",
].join(" ");

let counter = 0;
const newKey = () => `new-mount-${++counter}`;

function NetworkChoice({
  field,
  legend,
  value,
  error,
  onChange,
}: {
  field: "agentNetwork" | "checkNetwork";
  legend: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold">{legend}</legend>
      <div className="space-y-2">
        {NETWORK_MODES.map((mode) => (
          <label key={mode} className={`${CARD} ${value === mode ? CHOSEN : NOT_CHOSEN}`}>
            <input
              type="radio"
              name={field}
              value={mode}
              checked={value === mode}
              onChange={() => onChange(mode)}
              className="mt-0.5"
            />
            <span>
              <span className="font-medium">network {mode}</span>
              <span className="block text-zinc-600 dark:text-zinc-400">{NETWORK_EXPLAINED[mode]}</span>
            </span>
          </label>
        ))}
      </div>
      <FieldError id={`${field}-error`} label={legend} error={error} />
    </fieldset>
  );
}

function MountRow({
  mount,
  index,
  errors,
  onChange,
  onRemove,
}: {
  mount: MountForm;
  index: number;
  errors: Map<string, string>;
  onChange: (patch: Partial<MountForm>) => void;
  onRemove: () => void;
}) {
  const pathError = errors.get(`sandboxMounts.${index}.path`) ?? errors.get(`sandboxMounts.${index}`);
  const modeError = errors.get(`sandboxMounts.${index}.mode`);
  return (
    <li aria-label={`Mount ${index + 1}: ${mount.path || "new"}`} className={ROW}>
      <div className="min-w-0">
        <label htmlFor={`${mount.key}-path`} className="mb-1 block text-sm font-semibold">
          Path
        </label>
        <input
          id={`${mount.key}-path`}
          value={mount.path}
          placeholder="/opt/toolchain"
          spellCheck={false}
          aria-invalid={!!pathError}
          aria-describedby={pathError ? `${mount.key}-path-error` : undefined}
          onChange={(e) => onChange({ path: e.target.value })}
          className={`${input} font-mono`}
        />
        <FieldError id={`${mount.key}-path-error`} label="Path" error={pathError} />
      </div>
      <div>
        <label htmlFor={`${mount.key}-mode`} className="mb-1 block text-sm font-semibold">
          Access
        </label>
        <select
          id={`${mount.key}-mode`}
          value={mount.mode}
          aria-invalid={!!modeError}
          onChange={(e) => onChange({ mode: e.target.value })}
          className={input}
        >
          {MOUNT_MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_LABEL[m]}
            </option>
          ))}
        </select>
        <FieldError id={`${mount.key}-mode-error`} label="Access" error={modeError} />
      </div>
      <div className="sm:pt-6">
        <Button size="sm" variant="danger" aria-label={`Remove mount ${mount.path || index + 1}`} onClick={onRemove}>
          Remove
        </Button>
      </div>
    </li>
  );
}

export function SandboxFields({ form, onChange, errors }: Props) {
  const mounts = form.sandboxMounts;
  const setMounts = (sandboxMounts: MountForm[]) => onChange({ sandboxMounts });
  return (
    <div className="space-y-6">
      <div className="grid gap-5 lg:grid-cols-2">
        <NetworkChoice
          field="agentNetwork"
          legend="Agent step network"
          value={form.agentNetwork}
          error={errors.get("agentNetwork")}
          onChange={(agentNetwork) => onChange({ agentNetwork })}
        />
        <NetworkChoice
          field="checkNetwork"
          legend="Checks network"
          value={form.checkNetwork}
          error={errors.get("checkNetwork")}
          onChange={(checkNetwork) => onChange({ checkNetwork })}
        />
      </div>
      <div>
        <h3 className="text-sm font-semibold">Extra mounts ({mounts.length})</h3>
        <p className="mb-2 text-xs text-zinc-500 dark:text-zinc-400">
          Absolute paths bound into every sandboxed command (a toolchain cache, ~/.cache/ms-playwright, an agent&apos;s
          credentials folder). Never Gatehouse&apos;s data dir or install folder. At most {MAX_SANDBOX_MOUNTS}.
        </p>
        <FieldError id="sandboxMounts-error" label="Extra mounts" error={errors.get("sandboxMounts")} />
        {mounts.length > 0 ? (
          <ul aria-label="Extra mounts" className="mb-3 space-y-2">
            {mounts.map((m, i) => (
              <MountRow
                key={m.key}
                mount={m}
                index={i}
                errors={errors}
                onChange={(patch) => setMounts(mounts.map((x, j) => (j === i ? { ...x, ...patch } : x)))}
                onRemove={() => setMounts(mounts.filter((_, j) => j !== i))}
              />
            ))}
          </ul>
        ) : null}
        <Button
          size="sm"
          variant="secondary"
          disabled={mounts.length >= MAX_SANDBOX_MOUNTS}
          onClick={() => setMounts([...mounts, { key: newKey(), path: "", mode: "ro" }])}
        >
          + Add a mount
        </Button>
      </div>
      <div className="max-w-2xl">
        <GlobList
          id="visibleRefs"
          label="Visible refs"
          hint={REFS_HINT}
          value={form.visibleRefs}
          error={listError(errors, "visibleRefs", form.visibleRefs)}
          onChange={(visibleRefs) => onChange({ visibleRefs })}
        />
      </div>
    </div>
  );
}
