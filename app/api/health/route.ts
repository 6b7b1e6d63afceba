import { apiRoute } from "@/lib/api/handler";
import { sandboxWords } from "@/lib/gates/sandbox-words";
import { currentSandbox } from "@/lib/runner/runtime";

export const dynamic = "force-dynamic";

// Always says the sandbox mode: an operator (or a monitor) sees at once when agents can reach the platform.
export const GET = apiRoute(
  async () => {
    const sandbox = currentSandbox();
    const message = sandbox.kind === "unavailable" ? sandbox.reason : sandboxWords(sandbox.kind).warning;
    return { json: { status: "ok", sandbox: { mode: sandbox.kind, ...(message ? { message } : {}) } } };
  },
  { isPublic: true },
);
