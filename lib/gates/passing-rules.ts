// What passing means for a check beyond exiting 0, in words: a check that expects exit 1 (`grep TODO` finding
// nothing) read as a plain command tells the agent the opposite of what it must do. The brief, the stop
// hook's feedback and the MCP server's get_brief all say it the same way.
export function passingRulesOf(check: { expectExit?: number; expectStdout?: string; cwd?: string }): string[] {
  const rules: string[] = [];
  if (check.expectExit !== undefined && check.expectExit !== 0) rules.push(`passes on exit code ${check.expectExit}`);
  if (check.expectStdout !== undefined) rules.push(`its output must contain ${JSON.stringify(check.expectStdout)}`);
  if (check.cwd !== undefined) rules.push(`runs in ${check.cwd}`);
  return rules;
}
