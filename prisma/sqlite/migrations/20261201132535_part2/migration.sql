-- AlterTable
ALTER TABLE "Task" ADD COLUMN "autoMergeError" TEXT;
ALTER TABLE "Task" ADD COLUMN "mergedAt" DATETIME;
ALTER TABLE "Task" ADD COLUMN "mergedBy" TEXT;
ALTER TABLE "Task" ADD COLUMN "mergedCommit" TEXT;

-- CreateTable
CREATE TABLE "WorkAsset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "content" BLOB NOT NULL,
    "sha256" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,
    CONSTRAINT "WorkAsset_workId_fkey" FOREIGN KEY ("workId") REFERENCES "Work" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Worker" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'active',
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stoppedAt" DATETIME
);

-- CreateTable
CREATE TABLE "LogChunk" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "attemptN" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "offset" BIGINT NOT NULL,
    "bytes" BLOB NOT NULL,
    CONSTRAINT "LogChunk_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

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
    "strictEvaluation" BOOLEAN NOT NULL DEFAULT false,
    "proof" JSONB,
    "checkSources" JSONB NOT NULL DEFAULT '[]',
    "profile" TEXT NOT NULL DEFAULT 'lite',
    "reviewCommand" TEXT,
    "mutationCommand" TEXT,
    "mutationReport" TEXT,
    "redTeamCommand" TEXT,
    "redTeamTestCommand" TEXT,
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
    "claimedBy" TEXT,
    "workerName" TEXT,
    "handBacks" INTEGER NOT NULL DEFAULT 0,
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
CREATE INDEX "Run_claimedBy_idx" ON "Run"("claimedBy");
CREATE UNIQUE INDEX "Run_taskId_number_key" ON "Run"("taskId", "number");
CREATE TABLE "new_Attempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "gate" TEXT NOT NULL DEFAULT 'pending',
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "commit" TEXT,
    "isDirty" BOOLEAN NOT NULL DEFAULT false,
    "treeAfter" TEXT,
    "noChangeSince" INTEGER,
    "brief" TEXT,
    "agentVerdict" TEXT,
    "agentExitCode" INTEGER,
    "agentDurationMs" INTEGER,
    "agentMessage" TEXT,
    "agentLogTail" TEXT,
    "agentLogBytes" BIGINT,
    "agentLogNote" TEXT,
    "reportNotes" JSONB NOT NULL DEFAULT '[]',
    "review" JSONB,
    "mutation" JSONB,
    "redTeam" JSONB,
    "startedById" TEXT,
    CONSTRAINT "Attempt_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Attempt" ("agentDurationMs", "agentExitCode", "agentLogBytes", "agentLogNote", "agentLogTail", "agentMessage", "agentVerdict", "brief", "commit", "finishedAt", "gate", "id", "isDirty", "n", "noChangeSince", "runId", "startedAt", "startedById", "status", "treeAfter", "trigger") SELECT "agentDurationMs", "agentExitCode", "agentLogBytes", "agentLogNote", "agentLogTail", "agentMessage", "agentVerdict", "brief", "commit", "finishedAt", "gate", "id", "isDirty", "n", "noChangeSince", "runId", "startedAt", "startedById", "status", "treeAfter", "trigger" FROM "Attempt";
DROP TABLE "Attempt";
ALTER TABLE "new_Attempt" RENAME TO "Attempt";
CREATE UNIQUE INDEX "Attempt_runId_n_key" ON "Attempt"("runId", "n");
CREATE TABLE "new_CheckResult" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "attemptId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "checkId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "required" BOOLEAN NOT NULL,
    "verdict" TEXT NOT NULL DEFAULT 'queued',
    "exitCode" INTEGER,
    "signal" TEXT,
    "durationMs" INTEGER,
    "message" TEXT,
    "logTail" TEXT,
    "logBytes" BIGINT,
    "logNote" TEXT,
    "tests" JSONB,
    "logAttempt" INTEGER NOT NULL,
    "flaky" BOOLEAN NOT NULL DEFAULT false,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "CheckResult_attemptId_fkey" FOREIGN KEY ("attemptId") REFERENCES "Attempt" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_CheckResult" ("attemptId", "checkId", "durationMs", "exitCode", "finishedAt", "id", "kind", "logAttempt", "logBytes", "logNote", "logTail", "message", "name", "position", "required", "runId", "signal", "startedAt", "tests", "verdict") SELECT "attemptId", "checkId", "durationMs", "exitCode", "finishedAt", "id", "kind", "logAttempt", "logBytes", "logNote", "logTail", "message", "name", "position", "required", "runId", "signal", "startedAt", "tests", "verdict" FROM "CheckResult";
DROP TABLE "CheckResult";
ALTER TABLE "new_CheckResult" RENAME TO "CheckResult";
CREATE INDEX "CheckResult_runId_idx" ON "CheckResult"("runId");
CREATE UNIQUE INDEX "CheckResult_attemptId_checkId_key" ON "CheckResult"("attemptId", "checkId");
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
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Work" ("agentCommand", "agentEnvPassthrough", "baseBranch", "budgetSec", "checkDefaults", "checksPolicy", "createdAt", "failFast", "id", "keyPrefix", "maxGateAttempts", "name", "nextTaskNumber", "protectedPaths", "repoUrl", "requireTests", "testPatterns", "updatedAt", "vacuousPolicy", "version") SELECT "agentCommand", "agentEnvPassthrough", "baseBranch", "budgetSec", "checkDefaults", "checksPolicy", "createdAt", "failFast", "id", "keyPrefix", "maxGateAttempts", "name", "nextTaskNumber", "protectedPaths", "repoUrl", "requireTests", "testPatterns", "updatedAt", "vacuousPolicy", "version" FROM "Work";
DROP TABLE "Work";
ALTER TABLE "new_Work" RENAME TO "Work";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "WorkAsset_workId_name_key" ON "WorkAsset"("workId", "name");

-- CreateIndex
CREATE INDEX "Worker_state_heartbeatAt_idx" ON "Worker"("state", "heartbeatAt");

-- CreateIndex
CREATE UNIQUE INDEX "LogChunk_runId_attemptN_name_offset_key" ON "LogChunk"("runId", "attemptN", "name", "offset");

