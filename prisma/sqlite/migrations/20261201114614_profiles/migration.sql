-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN "review" JSONB;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "workId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "gate" TEXT NOT NULL DEFAULT 'pending',
    "ending" TEXT,
    "endingReason" TEXT,
    "policy" TEXT NOT NULL,
    "maxAttempts" INTEGER NOT NULL,
    "checks" JSONB NOT NULL,
    "suppressed" JSONB NOT NULL DEFAULT '[]',
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "agentCommand" TEXT,
    "agentEnvPassthrough" JSONB NOT NULL DEFAULT '[]',
    "budgetSec" INTEGER,
    "failFast" BOOLEAN NOT NULL DEFAULT false,
    "proof" JSONB,
    "profile" TEXT NOT NULL DEFAULT 'lite',
    "reviewCommand" TEXT,
    "branch" TEXT NOT NULL,
    "startCommit" TEXT,
    "spentMs" INTEGER NOT NULL DEFAULT 0,
    "budgetFromMs" INTEGER NOT NULL DEFAULT 0,
    "bestAttempt" INTEGER,
    "bestCommit" TEXT,
    "needsDecision" BOOLEAN NOT NULL DEFAULT false,
    "decision" TEXT,
    "decidedById" TEXT,
    "decidedAt" DATETIME,
    "dispatchedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Run_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_workId_fkey" FOREIGN KEY ("workId") REFERENCES "Work" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("agentCommand", "agentEnvPassthrough", "bestAttempt", "bestCommit", "branch", "budgetFromMs", "budgetSec", "checks", "createdAt", "decidedAt", "decidedById", "decision", "dispatchedById", "ending", "endingReason", "failFast", "finishedAt", "gate", "id", "maxAttempts", "needsDecision", "number", "policy", "proof", "spentMs", "startCommit", "startedAt", "status", "suppressed", "taskId", "updatedAt", "warnings", "workId") SELECT "agentCommand", "agentEnvPassthrough", "bestAttempt", "bestCommit", "branch", "budgetFromMs", "budgetSec", "checks", "createdAt", "decidedAt", "decidedById", "decision", "dispatchedById", "ending", "endingReason", "failFast", "finishedAt", "gate", "id", "maxAttempts", "needsDecision", "number", "policy", "proof", "spentMs", "startCommit", "startedAt", "status", "suppressed", "taskId", "updatedAt", "warnings", "workId" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_status_idx" ON "Run"("status");
CREATE INDEX "Run_needsDecision_finishedAt_idx" ON "Run"("needsDecision", "finishedAt");
CREATE INDEX "Run_ending_finishedAt_idx" ON "Run"("ending", "finishedAt");
CREATE INDEX "Run_workId_createdAt_idx" ON "Run"("workId", "createdAt");
CREATE INDEX "Run_status_finishedAt_idx" ON "Run"("status", "finishedAt");
CREATE INDEX "Run_workId_finishedAt_idx" ON "Run"("workId", "finishedAt");
CREATE UNIQUE INDEX "Run_taskId_number_key" ON "Run"("taskId", "number");
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
    "failFast" BOOLEAN NOT NULL DEFAULT false,
    "testPatterns" JSONB,
    "requireTests" TEXT NOT NULL DEFAULT 'warn',
    "protectedPaths" JSONB,
    "vacuousPolicy" TEXT NOT NULL DEFAULT 'warn',
    "profile" TEXT NOT NULL DEFAULT 'standard',
    "reviewCommand" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Work" ("agentCommand", "agentEnvPassthrough", "baseBranch", "budgetSec", "checkDefaults", "checksPolicy", "createdAt", "failFast", "id", "keyPrefix", "maxGateAttempts", "name", "nextTaskNumber", "protectedPaths", "repoUrl", "requireTests", "testPatterns", "updatedAt", "vacuousPolicy", "version") SELECT "agentCommand", "agentEnvPassthrough", "baseBranch", "budgetSec", "checkDefaults", "checksPolicy", "createdAt", "failFast", "id", "keyPrefix", "maxGateAttempts", "name", "nextTaskNumber", "protectedPaths", "repoUrl", "requireTests", "testPatterns", "updatedAt", "vacuousPolicy", "version" FROM "Work";
DROP TABLE "Work";
ALTER TABLE "new_Work" RENAME TO "Work";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- AlterTable
ALTER TABLE "Run" ADD COLUMN "mutationCommand" TEXT;
ALTER TABLE "Run" ADD COLUMN "mutationReport" TEXT;

-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN "mutation" JSONB;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN "mutationCommand" TEXT;
ALTER TABLE "Work" ADD COLUMN "mutationReport" TEXT;


-- AlterTable
ALTER TABLE "Run" ADD COLUMN "redTeamCommand" TEXT;
ALTER TABLE "Run" ADD COLUMN "redTeamTestCommand" TEXT;

-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN "redTeam" JSONB;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN "redTeamCommand" TEXT;
ALTER TABLE "Work" ADD COLUMN "redTeamTestCommand" TEXT;

