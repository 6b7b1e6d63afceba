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
    "proof" JSONB,
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
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Worker_state_heartbeatAt_idx" ON "Worker"("state", "heartbeatAt");

-- CreateIndex
CREATE UNIQUE INDEX "LogChunk_runId_attemptN_name_offset_key" ON "LogChunk"("runId", "attemptN", "name", "offset");

