-- CreateEnum
CREATE TYPE "Profile" AS ENUM ('lite', 'standard', 'full');

-- CreateEnum
CREATE TYPE "WorkerState" AS ENUM ('active', 'stopped', 'lost');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "checkSources" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "claimedBy" TEXT,
ADD COLUMN     "handBacks" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "mutationCommand" TEXT,
ADD COLUMN     "mutationReport" TEXT,
ADD COLUMN     "profile" "Profile" NOT NULL DEFAULT 'lite',
ADD COLUMN     "redTeamCommand" TEXT,
ADD COLUMN     "redTeamTestCommand" TEXT,
ADD COLUMN     "reviewCommand" TEXT,
ADD COLUMN     "strictEvaluation" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "workerName" TEXT;

-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN     "mutation" JSONB,
ADD COLUMN     "redTeam" JSONB,
ADD COLUMN     "reportNotes" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "review" JSONB;

-- AlterTable
ALTER TABLE "CheckResult" ADD COLUMN     "flaky" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "checkSources" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "mergePolicy" JSONB,
ADD COLUMN     "mutationCommand" TEXT,
ADD COLUMN     "mutationReport" TEXT,
ADD COLUMN     "profile" "Profile" NOT NULL DEFAULT 'standard',
ADD COLUMN     "redTeamCommand" TEXT,
ADD COLUMN     "redTeamTestCommand" TEXT,
ADD COLUMN     "resultsDir" TEXT,
ADD COLUMN     "reviewCommand" TEXT,
ADD COLUMN     "strictEvaluation" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "autoMergeError" TEXT,
ADD COLUMN     "mergedAt" TIMESTAMP(3),
ADD COLUMN     "mergedBy" TEXT,
ADD COLUMN     "mergedCommit" TEXT;

-- CreateTable
CREATE TABLE "WorkAsset" (
    "id" TEXT NOT NULL,
    "workId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,
    "sha256" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,

    CONSTRAINT "WorkAsset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Worker" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "state" "WorkerState" NOT NULL DEFAULT 'active',
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stoppedAt" TIMESTAMP(3),

    CONSTRAINT "Worker_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LogChunk" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "attemptN" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "offset" BIGINT NOT NULL,
    "bytes" BYTEA NOT NULL,

    CONSTRAINT "LogChunk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WorkAsset_workId_name_key" ON "WorkAsset"("workId", "name");

-- CreateIndex
CREATE INDEX "Worker_state_heartbeatAt_idx" ON "Worker"("state", "heartbeatAt");

-- CreateIndex
CREATE UNIQUE INDEX "LogChunk_runId_attemptN_name_offset_key" ON "LogChunk"("runId", "attemptN", "name", "offset");

-- CreateIndex
CREATE INDEX "Run_claimedBy_idx" ON "Run"("claimedBy");

-- AddForeignKey
ALTER TABLE "WorkAsset" ADD CONSTRAINT "WorkAsset_workId_fkey" FOREIGN KEY ("workId") REFERENCES "Work"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LogChunk" ADD CONSTRAINT "LogChunk_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

