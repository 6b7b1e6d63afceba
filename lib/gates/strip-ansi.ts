// Terminal escape sequences out of text: colours and cursor moves (CSI), titles and links (OSC), and the
// two-byte escapes, including the character-set selection `ESC ( B` that cargo prints after each colour.
const ANSI_PATTERN =
  /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)|\u001b[()*+][0-9A-Za-z]|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, "");
}
