// The built-ins of stage checks (issue 26), after the seed's helpers: file_has (exists, not empty,
// contains every text), research (a verdict: line and enough "- source: <url> — <note>" lines, optionally
// each url answering), tasks_done (no unchecked "- [ ]" box left). Every read goes through the checkout's
// safe reader (confined-files.ts).
import { DEFAULT_RESEARCH_SOURCES, isLoopbackAddress, type BuiltinParams } from "../../gates/builtins";
import type { BuiltinAnswer, BuiltinIo } from "./builtin-io";
import { isAnswer, readText } from "./confined-files";
import { pinAddress, requestPinned } from "./pinned-get";

export async function fileHas(p: BuiltinParams["file_has"], io: BuiltinIo): Promise<BuiltinAnswer> {
  const text = readText(p.path, io);
  if (isAnswer(text)) return text;
  const strings = p.strings ?? [];
  const missing = strings.filter((s) => !text.includes(s));
  for (const s of strings) io.log(`${missing.includes(s) ? "missing" : "found  "} ${JSON.stringify(s)}`);
  if (missing.length > 0)
    return {
      verdict: "failed",
      message: `${p.path}: does not contain ${missing.map((s) => JSON.stringify(s)).join(", ")}`,
    };
  return {
    verdict: "passed",
    message: strings.length ? `${p.path}: contains all ${strings.length} of the texts` : `${p.path}: written`,
  };
}

const SOURCE_LINE = /^\s*[-*]\s*source:\s*(\S+)\s+(?:—|–|-{1,2})\s+(\S.*)$/i;
const VERDICT_LINE = /^\s*(?:[-*]\s*)?verdict:\s*\S/im;

// Private, link-local and unspecified addresses: an online research check must not reach into the
// server's own network (a cloud metadata service, an internal admin page) on an agent's say-so.
function isPrivateAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, "");
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(a);
  if (v4) {
    const [x, y] = [Number(v4[1]), Number(v4[2])];
    return (
      x === 10 ||
      x === 0 ||
      (x === 172 && y >= 16 && y <= 31) ||
      (x === 192 && y === 168) ||
      (x === 169 && y === 254) ||
      (x === 100 && y >= 64 && y <= 127)
    );
  }
  return a === "::" || /^f[cd]/.test(a) || /^fe[89ab]/.test(a);
}

async function answersOk(raw: string, io: BuiltinIo): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${url.protocol} is not http or https`;
  if (url.username || url.password) return "carries a user name or password";
  const target = await pinAddress(
    url,
    (address) => isLoopbackAddress(address) || !isPrivateAddress(address),
    "a private address: a research source must be public (or on this machine)",
  );
  if ("error" in target) return target.error;
  const answer = await requestPinned(url, target, {
    method: "HEAD",
    signal: io.signal,
    agentName: "gatehouse-research",
  });
  if ("error" in answer) return answer.error;
  io.log(`HEAD ${url.href} → ${answer.status}`);
  return answer.status >= 200 && answer.status < 400 ? null : `answered ${answer.status}, not 2xx or 3xx`;
}

export async function research(p: BuiltinParams["research"], io: BuiltinIo): Promise<BuiltinAnswer> {
  const text = readText(p.path, io);
  if (isAnswer(text)) return text;
  const wanted = p.sources ?? DEFAULT_RESEARCH_SOURCES;
  const sources = text.split("\n").flatMap((line) => {
    const m = SOURCE_LINE.exec(line);
    return m ? [{ url: m[1], note: m[2].trim() }] : [];
  });
  const hasVerdict = VERDICT_LINE.test(text);
  io.log(`${sources.length} source line(s), ${wanted} wanted; verdict: line ${hasVerdict ? "found" : "missing"}`);
  const problems: string[] = [];
  if (!hasVerdict) problems.push("no verdict: line");
  if (sources.length < wanted)
    problems.push(
      `${sources.length} source${sources.length === 1 ? "" : "s"}, at least ${wanted} wanted (- source: <url> — <note>)`,
    );
  if (problems.length === 0 && p.online)
    for (const source of sources) {
      const problem = await answersOk(source.url, io);
      if (problem) problems.push(`${source.url} ${problem}`);
    }
  if (problems.length > 0) return { verdict: "failed", message: `${p.path}: ${problems.join("; ")}` };
  return {
    verdict: "passed",
    message: `${p.path}: a verdict and ${sources.length} sources${p.online ? ", each answering" : ""}`,
  };
}

export async function tasksDone(p: BuiltinParams["tasks_done"], io: BuiltinIo): Promise<BuiltinAnswer> {
  const text = readText(p.path, io, { allowEmpty: true });
  if (isAnswer(text)) return text;
  const lines = text.split("\n");
  const open = lines.flatMap((line, i) => (/^\s*[-*]\s+\[ \]/.test(line) ? [i + 1] : []));
  const done = lines.filter((line) => /^\s*[-*]\s+\[[xX]\]/.test(line)).length;
  for (const n of open.slice(0, 50)) io.log(`line ${n}: ${lines[n - 1].trim()}`);
  if (open.length > 0)
    return {
      verdict: "failed",
      message: `${p.path}: ${open.length} unchecked box${open.length === 1 ? "" : "es"} left, first at line ${open[0]}`,
    };
  return { verdict: "passed", message: `${p.path}: no unchecked box left (${done} checked)` };
}
