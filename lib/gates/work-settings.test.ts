import { describe, expect, it } from "vitest";
import { platformMountIssues, ZRefGlob, ZSandboxMounts } from "./sandbox-settings";
import {
  FROZEN_RUN_COLUMNS,
  SETTING_KEYS,
  SETTINGS_SECTIONS,
  WORK_SETTINGS,
  defaultSettings,
  fileKeys,
  freezeWorkSettings,
  groupOf,
  sandboxSettingsOf,
  settingsInSection,
} from "./work-settings";
import { ZWorkCreate, ZWorkPatch } from "./work-schema";

const minimalWork = { name: "Payments", repoUrl: "/srv/payments.git" };

describe("the registry of Work settings", () => {
  it("gives the create schema its defaults and the patch schema every setting, optional", () => {
    const created = ZWorkCreate.parse(minimalWork);
    expect(created).toEqual({ ...minimalWork, ...defaultSettings() });
    expect(Object.keys(ZWorkPatch.shape).sort()).toEqual(
      ["name", "repoUrl", "baseBranch", "version", ...SETTING_KEYS].sort(),
    );
    expect(ZWorkPatch.parse({ version: 1 })).toEqual({ version: 1 });
  });

  it("hands out fresh list defaults, so one Work's edit never reaches another's", () => {
    const a = defaultSettings();
    a.testPatterns.push("mine/**");
    expect(defaultSettings().testPatterns).not.toContain("mine/**");
  });

  it("puts every setting in one section of the settings page", () => {
    const placed = SETTINGS_SECTIONS.flatMap((s) => settingsInSection(s));
    expect(placed.sort()).toEqual([...SETTING_KEYS].sort());
    expect(settingsInSection("sandbox")).toEqual(["agentNetwork", "checkNetwork", "sandboxMounts", "visibleRefs"]);
  });

  it("names the gates-file keys of the proof and sandbox blocks", () => {
    expect(fileKeys("proof")).toEqual({
      test_patterns: "testPatterns",
      require_tests: "requireTests",
      protected_paths: "protectedPaths",
      vacuous_policy: "vacuousPolicy",
      require_test_summary: "requireTestSummary",
      profile: "profile",
    });
    expect(fileKeys("sandbox")).toEqual({
      agent_network: "agentNetwork",
      check_network: "checkNetwork",
      mounts: "sandboxMounts",
      visible_refs: "visibleRefs",
    });
  });

  it("freezes copies, groups and profile-gated commands as a dispatch always did", () => {
    const work = {
      ...defaultSettings(),
      checksPolicy: "warn" as const,
      profile: "standard" as const,
      reviewCommand: "./review.sh",
      mutationCommand: "npx mutmut run",
      checkSources: [{ name: "gate", url: "/srv/gate.git", ref: "main" }],
      agentNetwork: "off" as const,
    };
    const frozen = freezeWorkSettings(work);
    expect(Object.keys(frozen).sort()).toEqual([...FROZEN_RUN_COLUMNS].sort());
    expect(frozen).toMatchObject({
      policy: "warn",
      profile: "standard",
      reviewCommand: "./review.sh",
      // The mutation floor is a layer of profile full only.
      mutationCommand: null,
      checkSources: [{ name: "gate", url: "/srv/gate.git", ref: "main", commit: null }],
      proof: groupOf("proof", work),
      sandbox: { agentNetwork: "off", checkNetwork: "on", sandboxMounts: [], visibleRefs: [] },
    });
    expect(freezeWorkSettings({ ...work, profile: "lite" })).toMatchObject({ reviewCommand: null });
    expect(freezeWorkSettings({ ...work, profile: "full" })).toMatchObject({ mutationCommand: "npx mutmut run" });
    // Merging and the results dir read the Work when they happen; the task-overridable ones are resolved by dispatch.
    for (const notHere of ["mergePolicy", "resultsDir", "checks", "maxAttempts", "agentCommand", "budgetSec"])
      expect(frozen).not.toHaveProperty(notHere);
  });

  it("says what a run from before the sandbox settings ran with: the defaults", () => {
    expect(sandboxSettingsOf(null)).toEqual({
      agentNetwork: "on",
      checkNetwork: "on",
      sandboxMounts: [],
      visibleRefs: [],
    });
    const frozen = {
      agentNetwork: "off" as const,
      checkNetwork: "off" as const,
      sandboxMounts: [],
      visibleRefs: ["v*"],
    };
    expect(sandboxSettingsOf(frozen)).toBe(frozen);
  });

  it("keeps each entry's form kind and section", () => {
    expect(WORK_SETTINGS.sandboxMounts.form).toBe("mounts");
    expect(WORK_SETTINGS.visibleRefs.form).toBe("lines");
  });
});

describe("sandbox settings", () => {
  it.each(["refs/tags/v*", "release/*", "main", "refs/heads/feature/**", "v1.2.3", "hotfix+1"])(
    "accepts the ref glob %j",
    (glob) => expect(ZRefGlob.safeParse(glob).success).toBe(true),
  );
  it.each([
    "",
    "a b",
    "a..b",
    "-x",
    "/refs",
    "x/",
    "x.lock",
    "refs/.hidden",
    "a//b",
    "x~1",
    "x^",
    "a:b",
    "a?",
    "[ab]",
    "x\\y",
  ])("refuses the ref glob %j", (glob) => expect(ZRefGlob.safeParse(glob).success).toBe(false));

  it("refuses a mount listed twice (a trailing / is the same folder)", () => {
    const r = ZSandboxMounts.safeParse([
      { path: "/opt/x", mode: "ro" },
      { path: "/opt/x/", mode: "rw" },
    ]);
    expect(r.success ? [] : r.error.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["1.path", "listed twice"],
    ]);
  });

  it("refuses mounts inside or around the data dir and the install folder, by their index", () => {
    const platform = { dataDir: "/var/lib/gatehouse/data", installDir: "/opt/gatehouse" };
    const mounts = [
      { path: "/opt/toolchain", mode: "ro" as const },
      { path: "/var/lib/gatehouse/data/gatehouse.db", mode: "ro" as const },
      { path: "/var/lib", mode: "ro" as const },
      { path: "/opt/gatehouse", mode: "rw" as const },
      { path: "/opt/gatehouse-other", mode: "rw" as const },
    ];
    expect(platformMountIssues(mounts, platform)).toEqual([
      { path: "sandboxMounts.1.path", message: "must not be inside Gatehouse's data dir (/var/lib/gatehouse/data)" },
      { path: "sandboxMounts.2.path", message: "must not contain Gatehouse's data dir (/var/lib/gatehouse/data)" },
      { path: "sandboxMounts.3.path", message: "must not be inside Gatehouse's install folder (/opt/gatehouse)" },
    ]);
  });

  it("refuses a mount by where it leads through links, not only as it is typed", () => {
    const platform = { dataDir: "/mnt/disk/gatehouse", installDir: "/opt/gatehouse" };
    const mounts = [
      { path: "/srv/cache", mode: "rw" as const },
      { path: "/var/lib/gatehouse", mode: "ro" as const },
      { path: "/srv/mnt", mode: "ro" as const },
    ];
    // /var/lib/gatehouse is a link to the data dir; /srv/mnt one to /mnt, around it.
    const resolved = ["/srv/cache", "/mnt/disk/gatehouse", "/mnt"];
    expect(platformMountIssues(mounts, platform, resolved)).toEqual([
      {
        path: "sandboxMounts.1.path",
        message:
          "must not be inside Gatehouse's data dir (/mnt/disk/gatehouse): " +
          "it leads through a link to /mnt/disk/gatehouse",
      },
      {
        path: "sandboxMounts.2.path",
        message: "must not contain Gatehouse's data dir (/mnt/disk/gatehouse): it leads through a link to /mnt",
      },
    ]);
  });
});
