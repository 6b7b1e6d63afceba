// verify: the use cases of usecases/<id>/*.yaml, each {id, accept, failure_mode, layers: {cli: {run,
// expect: {exit, stdout}}, api: {method, path, expect: {status}}}}, run layer by layer — the cli layer as a
// check's command runs, the api layer against the base URL the check names (on this machine only) — and
// written up in evidence/<id>/verify.md: `result: pass|fail`, the commit, one row per use case. Reads and
// the write go through the checkout's safe file reader.
import YAML from "yaml";
import { isLoopbackAddress, type BuiltinParams } from "../../gates/builtins";
import type { BuiltinAnswer, BuiltinIo } from "./builtin-io";
import { isAnswer, listFiles, readText, writeResult } from "./confined-files";
import { pinAddress, requestPinned } from "./pinned-get";

type Row = { id: string; accept: string; cli: string; api: string; isPass: boolean };
const MAX_USE_CASES = 50;
const cell = (text: string) => text.replace(/\s+/g, " ").replace(/\|/g, "\\|").slice(0, 200);
const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

async function cliLayer(layer: unknown, label: string, io: BuiltinIo): Promise<{ shown: string; isPass: boolean }> {
  if (layer === undefined) return { shown: "—", isPass: true };
  if (!isMap(layer) || typeof layer.run !== "string" || !layer.run.trim())
    return { shown: "✗ layers.cli.run: must be a command", isPass: false };
  if (!io.exec) return { shown: "✗ no command can run here", isPass: false };
  const expect = isMap(layer.expect) ? layer.expect : {};
  const wantExit = typeof expect.exit === "number" ? expect.exit : 0;
  const answer = await io.exec(layer.run, label);
  if (answer.problem) return { shown: `✗ ${answer.problem}`, isPass: false };
  if (answer.exitCode !== wantExit) return { shown: `✗ exit ${answer.exitCode}, expected ${wantExit}`, isPass: false };
  if (typeof expect.stdout === "string" && !answer.output.includes(expect.stdout))
    return { shown: `✗ output lacks ${JSON.stringify(expect.stdout)}`, isPass: false };
  return { shown: `✓ exit ${wantExit}`, isPass: true };
}

async function apiLayer(layer: unknown, base: string | undefined, io: BuiltinIo) {
  if (layer === undefined) return { shown: "—", isPass: true };
  if (!isMap(layer) || typeof layer.path !== "string" || !layer.path.startsWith("/"))
    return { shown: "✗ layers.api.path: must start with /", isPass: false };
  if (!base) return { shown: "✗ the check names no base_url", isPass: false };
  const method = typeof layer.method === "string" ? layer.method.toUpperCase() : "GET";
  if (!/^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/.test(method))
    return { shown: `✗ layers.api.method: ${method} is not an HTTP method`, isPass: false };
  const expect = isMap(layer.expect) ? layer.expect : {};
  const wantStatus = typeof expect.status === "number" ? expect.status : 200;
  const url = new URL(layer.path, base);
  const target = await pinAddress(url, isLoopbackAddress, "not a loopback address: only this machine may be checked");
  if ("error" in target) return { shown: `✗ ${target.error}`, isPass: false };
  const answer = await requestPinned(url, target, { method, signal: io.signal, agentName: "gatehouse-verify" });
  io.log(`${method} ${url.href} → ${"error" in answer ? answer.error : answer.status}`);
  if ("error" in answer) return { shown: `✗ ${answer.error}`, isPass: false };
  return answer.status === wantStatus
    ? { shown: `✓ ${method} ${layer.path} ${answer.status}`, isPass: true }
    : { shown: `✗ ${method} ${layer.path} ${answer.status}, expected ${wantStatus}`, isPass: false };
}

async function runUseCase(file: string, p: BuiltinParams["verify"], io: BuiltinIo): Promise<Row> {
  const text = readText(`usecases/${p.id}/${file}`, io);
  const fallback = file.replace(/\.ya?ml$/, "");
  if (isAnswer(text)) return { id: fallback, accept: "", cli: `✗ ${text.message}`, api: "—", isPass: false };
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (error) {
    const why = (error as Error).message.split("\n")[0];
    return { id: fallback, accept: "", cli: `✗ not valid YAML: ${why}`, api: "—", isPass: false };
  }
  if (!isMap(doc)) return { id: fallback, accept: "", cli: "✗ must be a map", api: "—", isPass: false };
  const id = typeof doc.id === "string" && doc.id ? doc.id : fallback;
  const accept = typeof doc.accept === "string" ? doc.accept : "";
  const layers = isMap(doc.layers) ? doc.layers : {};
  const problems: string[] = [];
  if (!accept) problems.push("no accept");
  if (typeof doc.failure_mode !== "string" || !doc.failure_mode) problems.push("no failure_mode");
  if (layers.cli === undefined && layers.api === undefined) problems.push("no layers (cli or api)");
  const cli = await cliLayer(layers.cli, `uc-${fallback}`, io);
  const api = await apiLayer(layers.api, p.base_url, io);
  const shownCli = problems.length ? `✗ ${problems.join(", ")}` : cli.shown;
  return { id, accept, cli: shownCli, api: api.shown, isPass: problems.length === 0 && cli.isPass && api.isPass };
}

export async function verify(p: BuiltinParams["verify"], io: BuiltinIo): Promise<BuiltinAnswer> {
  const listed = listFiles(`usecases/${p.id}`, io);
  if (isAnswer(listed)) return listed;
  const files = listed.filter((f) => /\.ya?ml$/.test(f));
  if (files.length === 0) return { verdict: "failed", message: `usecases/${p.id}/: no use cases (*.yaml)` };
  if (files.length > MAX_USE_CASES)
    return { verdict: "error", message: `usecases/${p.id}/: ${files.length} use cases, at most ${MAX_USE_CASES}` };
  const rows: Row[] = [];
  for (const file of files) {
    if (io.signal.aborted) break;
    const row = await runUseCase(file, p, io);
    io.log(`${row.isPass ? "pass" : "FAIL"} ${row.id}: cli ${row.cli}; api ${row.api}`);
    rows.push(row);
  }
  const failed = rows.filter((r) => !r.isPass);
  const evidence = [
    `# Verify: ${p.id}`,
    "",
    `result: ${failed.length === 0 ? "pass" : "fail"}`,
    `commit: ${io.commit ?? "unknown"}`,
    "",
    "| use case | accept | cli | api | result |",
    "| --- | --- | --- | --- | --- |",
    ...rows.map(
      (r) => `| ${cell(r.id)} | ${cell(r.accept)} | ${cell(r.cli)} | ${cell(r.api)} | ${r.isPass ? "pass" : "fail"} |`,
    ),
    "",
  ].join("\n");
  const path = `evidence/${p.id}/verify.md`;
  const refused = writeResult(path, evidence, io);
  if (refused) return refused;
  io.log(`wrote ${path}`);
  return failed.length === 0
    ? { verdict: "passed", message: `${rows.length} use case${rows.length === 1 ? "" : "s"} pass (${path})` }
    : {
        verdict: "failed",
        message: `${failed.length} of ${rows.length} use cases fail, first ${failed[0].id}: ${failed[0].cli.startsWith("✗") ? failed[0].cli : failed[0].api} (${path})`,
      };
}
