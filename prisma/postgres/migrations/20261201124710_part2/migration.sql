-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "checkSources" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "strictEvaluation" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN     "reportNotes" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "CheckResult" ADD COLUMN     "flaky" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "checkSources" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "mergePolicy" JSONB,
ADD COLUMN     "strictEvaluation" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "autoMergeError" TEXT,
ADD COLUMN     "mergedAt" TIMESTAMP(3),
ADD COLUMN     "mergedBy" TEXT,
ADD COLUMN     "mergedCommit" TEXT;

