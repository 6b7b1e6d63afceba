// The parts of a gate file that matter (a package.json script or key, the pytest tables of a TOML/INI file),
// read and laid back: a change's edit of another part (a dependency) stays when the originals are restored.
export function parseJson(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

// What a part of a file holds (compared between versions), or null when the file or the part is absent.
export function partOf(text: string | null, part: string | null): string | null {
  if (text === null || part === null) return text;
  if (part.startsWith("[")) return sectionsOf(text, part) || null;
  const json = parseJson(text);
  if (!json) return text;
  const value = part.startsWith("scripts.")
    ? (json.scripts as Record<string, unknown> | undefined)?.[part.slice(8)]
    : json[part];
  return value === undefined ? null : JSON.stringify(value);
}

// The sections whose header starts with `prefix` ("[tool.pytest" matches [tool.pytest.ini_options]).
function sectionsOf(text: string, prefix: string): string {
  return splitSections(text)
    .filter((s) => s.header?.startsWith(prefix))
    .map((s) => s.text)
    .join("");
}

function splitSections(text: string): { header: string | null; text: string }[] {
  const sections: { header: string | null; text: string }[] = [{ header: null, text: "" }];
  for (const line of text.split(/(?<=\n)/)) {
    if (/^\s*\[[^\]]+\]\s*$/.test(line)) sections.push({ header: line.trim(), text: "" });
    sections[sections.length - 1].text += line;
  }
  return sections;
}

// The file as the check runs it "with the originals": the start commit's version of the edited parts laid
// over the change's version, the rest of the change kept (a dependency it adds to package.json stays).
// null: the file did not exist at the start (it is removed).
export function restoreParts(
  start: string | null,
  head: string | null,
  parts: readonly (string | null)[],
): string | null {
  if (start === null || head === null || parts.includes(null)) return start;
  let text = head;
  for (const part of parts) {
    if (part === null) return start;
    if (part.startsWith("[")) {
      const kept = splitSections(text).filter((s) => !s.header?.startsWith(part));
      const restored = sectionsOf(start, part);
      const body = kept.map((s) => s.text).join("");
      text = restored ? `${body}${body.endsWith("\n") || body === "" ? "" : "\n"}${restored}` : body;
      continue;
    }
    const json = parseJson(text);
    const original = parseJson(start);
    if (!json || !original) return start;
    if (part.startsWith("scripts.")) {
      const name = part.slice(8);
      const scripts = { ...((json.scripts as Record<string, unknown>) ?? {}) };
      const was = (original.scripts as Record<string, unknown> | undefined)?.[name];
      if (was === undefined) delete scripts[name];
      else scripts[name] = was;
      json.scripts = scripts;
    } else if (original[part] === undefined) delete json[part];
    else json[part] = original[part];
    text = `${JSON.stringify(json, null, 2)}\n`;
  }
  return text;
}
