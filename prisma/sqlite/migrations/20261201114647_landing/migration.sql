-- AlterTable
ALTER TABLE "Work" ADD COLUMN "mergePolicy" JSONB;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN "autoMergeError" TEXT;
ALTER TABLE "Task" ADD COLUMN "mergedAt" DATETIME;
ALTER TABLE "Task" ADD COLUMN "mergedBy" TEXT;
ALTER TABLE "Task" ADD COLUMN "mergedCommit" TEXT;

-- AlterTable
ALTER TABLE "CheckResult" ADD COLUMN "flaky" BOOLEAN NOT NULL DEFAULT false;
