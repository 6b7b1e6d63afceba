-- Part 3 (sandbox, checkout isolation, JUnit, settings registry, decisions, agents, stages): one migration.
-- Hand-edited: Prisma writes a Json default as DEFAULT [] (SQLite reads it as an empty identifier), so the
-- defaults are quoted: DEFAULT '[]'.
-- AlterTable
ALTER TABLE "Run" ADD COLUMN "budgetUsd" REAL;
ALTER TABLE "Run" ADD COLUMN "decisionReason" TEXT;
ALTER TABLE "Run" ADD COLUMN "sandbox" JSONB;
ALTER TABLE "Run" ADD COLUMN "sandboxMode" TEXT;
ALTER TABLE "Run" ADD COLUMN "supersededById" TEXT;

-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN "agentResult" JSONB;
ALTER TABLE "Attempt" ADD COLUMN "pushed" JSONB;

-- AlterTable
ALTER TABLE "CheckResult" ADD COLUMN "testCases" JSONB;
ALTER TABLE "CheckResult" ADD COLUMN "warning" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN "budgetUsd" REAL;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Work" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "repoUrl" TEXT NOT NULL,
    "baseBranch" TEXT,
    "keyPrefix" TEXT NOT NULL,
    "nextTaskNumber" INTEGER NOT NULL DEFAULT 1,
    "checkDefaults" JSONB NOT NULL DEFAULT '[]',
    "checksPolicy" TEXT NOT NULL DEFAULT 'required',
    "maxGateAttempts" INTEGER NOT NULL DEFAULT 3,
    "agentCommand" TEXT,
    "agentEnvPassthrough" JSONB NOT NULL DEFAULT '[]',
    "budgetSec" INTEGER,
    "budgetUsd" REAL,
    "failFast" BOOLEAN NOT NULL DEFAULT false,
    "strictEvaluation" BOOLEAN NOT NULL DEFAULT false,
    "testPatterns" JSONB,
    "requireTests" TEXT NOT NULL DEFAULT 'warn',
    "protectedPaths" JSONB,
    "vacuousPolicy" TEXT NOT NULL DEFAULT 'warn',
    "checkSources" JSONB NOT NULL DEFAULT '[]',
    "mergePolicy" JSONB,
    "resultsDir" TEXT,
    "profile" TEXT NOT NULL DEFAULT 'standard',
    "reviewCommand" TEXT,
    "mutationCommand" TEXT,
    "mutationReport" TEXT,
    "redTeamCommand" TEXT,
    "redTeamTestCommand" TEXT,
    "agentNetwork" TEXT NOT NULL DEFAULT 'on',
    "checkNetwork" TEXT NOT NULL DEFAULT 'on',
    "sandboxMounts" JSONB NOT NULL DEFAULT '[]',
    "visibleRefs" JSONB NOT NULL DEFAULT '[]',
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Work" ("agentCommand", "agentEnvPassthrough", "baseBranch", "budgetSec", "checkDefaults", "checkSources", "checksPolicy", "createdAt", "failFast", "id", "keyPrefix", "maxGateAttempts", "mergePolicy", "mutationCommand", "mutationReport", "name", "nextTaskNumber", "profile", "protectedPaths", "redTeamCommand", "redTeamTestCommand", "repoUrl", "requireTests", "resultsDir", "reviewCommand", "strictEvaluation", "testPatterns", "updatedAt", "vacuousPolicy", "version") SELECT "agentCommand", "agentEnvPassthrough", "baseBranch", "budgetSec", "checkDefaults", "checkSources", "checksPolicy", "createdAt", "failFast", "id", "keyPrefix", "maxGateAttempts", "mergePolicy", "mutationCommand", "mutationReport", "name", "nextTaskNumber", "profile", "protectedPaths", "redTeamCommand", "redTeamTestCommand", "repoUrl", "requireTests", "resultsDir", "reviewCommand", "strictEvaluation", "testPatterns", "updatedAt", "vacuousPolicy", "version" FROM "Work";
DROP TABLE "Work";
ALTER TABLE "new_Work" RENAME TO "Work";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Lanes and stages (issue 26): the Work's lanes and autoAdvance, the task's lane and stage, the run's frozen
-- lane and the stage it ran.
ALTER TABLE "Work" ADD COLUMN "lanes" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "Work" ADD COLUMN "autoAdvance" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Task" ADD COLUMN "lane" TEXT;
ALTER TABLE "Task" ADD COLUMN "stage" TEXT;
ALTER TABLE "Run" ADD COLUMN "lane" JSONB;
ALTER TABLE "Run" ADD COLUMN "stage" TEXT;
