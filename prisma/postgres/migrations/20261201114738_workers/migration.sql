-- CreateEnum
CREATE TYPE "WorkerState" AS ENUM ('active', 'stopped', 'lost');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "claimedBy" TEXT,
ADD COLUMN     "handBacks" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "workerName" TEXT;

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
CREATE INDEX "Worker_state_heartbeatAt_idx" ON "Worker"("state", "heartbeatAt");

-- CreateIndex
CREATE UNIQUE INDEX "LogChunk_runId_attemptN_name_offset_key" ON "LogChunk"("runId", "attemptN", "name", "offset");

-- CreateIndex
CREATE INDEX "Run_claimedBy_idx" ON "Run"("claimedBy");

-- AddForeignKey
ALTER TABLE "LogChunk" ADD CONSTRAINT "LogChunk_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

