// An attempt's number as an address or a route carries it: 1–9999 in plain digits. "01", "1e3", "-1" or
// "abc" name no attempt (Number() would read some of them as one).
export function attemptNumberOf(text: string): number | null {
  return /^[1-9][0-9]{0,3}$/.test(text) ? Number(text) : null;
}
