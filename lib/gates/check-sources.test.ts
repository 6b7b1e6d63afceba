import { describe, expect, it } from "vitest";
import { ZCheckSourceList } from "./check-sources";
import { toFieldIssues } from "./field-issues";
import { expandPlaceholders } from "./placeholders";

const good = { name: "gate", url: "https://git.example.com/gate.git", ref: "main" };
const issuesOf = (list: unknown) => {
  const parsed = ZCheckSourceList.safeParse(list);
  return parsed.success ? [] : toFieldIssues(parsed.error, ["checkSources"]);
};

describe("ZCheckSourceList", () => {
  it.each([
    ["https://git.example.com/gate.git"],
    ["http://127.0.0.1:8080/repo.git"],
    ["ssh://git@git.example.com/team/gate.git"],
    ["git@git.example.com:team/gate.git"],
    ["git://git.example.com/gate.git"],
    ["file:///srv/git/gate.git"],
    ["/srv/git/gate.git"],
    ["../gate"],
  ])("takes the url %s", (url) => {
    expect(issuesOf([{ ...good, url }])).toEqual([]);
  });

  it.each([
    ["main"],
    ["release/2.x"],
    ["refs/heads/main"],
    ["refs/tags/v1.2.3"],
    ["v1.2.3"],
    ["0123456789abcdef0123456789abcdef01234567"],
  ])("takes the ref %s", (ref) => {
    expect(issuesOf([{ ...good, ref }])).toEqual([]);
  });

  it.each([
    ["url", "--upload-pack=touch /tmp/pwned", "must not start with '-'"],
    ["url", "-oProxyCommand=touch /tmp/pwned", "must not start with '-'"],
    ["url", "ext::sh -c touch% /tmp/pwned", "remote helpers"],
    ["url", "fd::17", "remote helpers"],
    ["url", "ssh://-oProxyCommand=x/repo", "host must not start with '-'"],
    ["url", "git@-oProxyCommand=x:repo", "host must not start with '-'"],
    ["url", "ftp://example.com/repo.git", "the ftp:// transport is not allowed"],
    ["url", "https://example.com/a repo", "spaces"],
    ["url", "", "required"],
    ["ref", "a..b", "not a git ref: must not contain '..'"],
    ["ref", "refs/heads/", "not a git ref: must not start or end with '/'"],
    ["ref", "main@{1}", "not a git ref: must not contain '@{'"],
    ["ref", "@{", "not a git ref: must not contain '@{'"],
    ["ref", "@", "not a git ref: must not be '@' alone"],
    ["ref", "-main", "not a git ref: must not start with '-'"],
    ["ref", "ma in", "not a git ref: must not contain spaces"],
    ["ref", "heads/x.lock", "not a git ref: no part between '/' may start with '.' or end with '.lock'"],
    ["ref", "v1.", "not a git ref: must not end with '.'"],
    ["ref", "a^b", "not a git ref: must not contain"],
    ["name", "../x", "a folder name"],
    ["name", ".git", "a folder name"],
    ["name", "a/b", "a folder name"],
    ["name", "", "required"],
    ["secret", "not a name", "a secret name"],
  ])("refuses the %s %j with its field path", (field, value, rule) => {
    expect(issuesOf([good, { ...good, name: "other", [field]: value }])).toContainEqual({
      path: `checkSources.1.${field}`,
      message: expect.stringContaining(rule),
    });
  });

  it("refuses duplicate names, a secret for a url that is not http(s), and unknown fields", () => {
    expect(
      issuesOf([
        good,
        { ...good, url: "/srv/other" },
        { name: "ssh", url: "git@example.com:x.git", ref: "main", secret: "KEY" },
        { ...good, name: "x", branch: "main" },
      ]),
    ).toEqual([
      { path: "checkSources.3.branch", message: "unknown field: branch" },
      {
        path: "checkSources.1.name",
        message: 'duplicate name "gate": each check source needs its own folder (already used by source 1)',
      },
      {
        path: "checkSources.2.secret",
        message: "a secret is sent to git as an HTTP credential: only for https:// or http:// urls",
      },
    ]);
  });
});

describe("expandPlaceholders", () => {
  const dirs = { results_dir: "/wt/out", checks_dir: "/data/checks/r/1", assets_dir: null };
  it.each([
    ["bash {{checks_dir}}/gate/run.sh", "bash /data/checks/r/1/gate/run.sh"],
    ["ls {{ checks_dir }} {{results_dir}}", "ls /data/checks/r/1 /wt/out"],
    ["echo {{checks_dir}}{{checks_dir}}", "echo /data/checks/r/1/data/checks/r/1"],
    ["echo {checks_dir}", "echo {checks_dir}"],
  ])("%s → %s", (text, expected) => {
    expect(expandPlaceholders(text, dirs)).toBe(expected);
  });

  it.each([
    ["cat {{assets_dir}}/spec.md", "{{assets_dir}}: this run has no assets directory"],
    ["echo {{unknown}}", "unknown placeholder {{unknown}}"],
  ])("%s is refused: %s", (text, message) => {
    expect(() => expandPlaceholders(text, dirs)).toThrow(message);
  });
});
