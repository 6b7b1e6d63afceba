// Placeholders in check commands (SPEC Part 2): {{results_dir}}, {{checks_dir}}, {{assets_dir}} become the
// directories the runner gives the check. The path is put in as it is (quote the placeholder in the command
// if the data dir's path may hold spaces). A placeholder whose directory is null stays as written.
export type PlaceholderDirs = { results_dir: string; checks_dir: string | null; assets_dir: string | null };

const PLACEHOLDER = /\{\{\s*(results_dir|checks_dir|assets_dir)\s*\}\}/g;

export function expandPlaceholders(text: string, dirs: PlaceholderDirs): string {
  return text.replace(PLACEHOLDER, (whole, name: keyof PlaceholderDirs) => dirs[name] ?? whole);
}
