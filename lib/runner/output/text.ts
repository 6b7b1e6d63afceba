// Turning stored bytes into text that is safe to keep in the database and show: invalid UTF-8 becomes
// U+FFFD, NUL becomes ␀ (PostgreSQL text cannot hold it), a cut multi-byte character at the start is dropped.

const decoder = new TextDecoder("utf-8", { fatal: false });

export function decodeForDisplay(bytes: Buffer, options: { isCutAtStart?: boolean } = {}): string {
  let start = 0;
  if (options.isCutAtStart) while (start < Math.min(3, bytes.length) && (bytes[start] & 0xc0) === 0x80) start++;
  return decoder.decode(bytes.subarray(start)).replace(/\0/g, "\u2400");
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}
