// A failure the CLI reports in one line (no stack) with its exit status; `status` is the HTTP status when
// the server refused the request.
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "CliError";
  }
}
