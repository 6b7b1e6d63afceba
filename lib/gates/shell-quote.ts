// One word for bash, whatever it holds: single-quoted, each ' closed, escaped and reopened.
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
