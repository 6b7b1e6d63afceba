// Which section of the top bar a page belongs to: the inbox is `/` alone; a task and a run are pages of
// their Work, so they count as under "Works".
const SECTION_PREFIXES: Readonly<Record<string, readonly string[]>> = {
  "/works": ["/works", "/tasks", "/runs"],
};

export function isInSection(pathname: string, sectionHref: string): boolean {
  if (sectionHref === "/") return pathname === "/";
  return (SECTION_PREFIXES[sectionHref] ?? [sectionHref]).some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
}
