// Query parameters of pages (?before=), read leniently: a value that is not what the link would have
// carried (NaN, 1e309, -1, not a time) is ignored, so the page shows its first page instead of failing.
export function pageNumberParam(raw: string | string[] | undefined): number | undefined {
  if (typeof raw !== "string" || !/^\d{1,10}$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= 1 && value <= 2 ** 31 - 1 ? value : undefined;
}

export function pageTimeParam(raw: string | string[] | undefined): Date | undefined {
  if (typeof raw !== "string" || !/^\d{4}-\d\d-\d\d/.test(raw) || raw.length > 40) return undefined;
  const value = new Date(raw);
  return Number.isNaN(value.getTime()) ? undefined : value;
}

// A filter value (an id) that could not be stored or looked up is no filter.
export function pageTextParam(raw: string | string[] | undefined): string | undefined {
  if (typeof raw !== "string" || raw === "" || raw.length > 200 || /[\0\ud800-\udfff]/.test(raw)) return undefined;
  return raw;
}
