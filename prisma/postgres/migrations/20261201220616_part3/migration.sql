-- CreateEnum
CREATE TYPE "Network" AS ENUM ('on', 'off');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "budgetUsd" DOUBLE PRECISION,
ADD COLUMN     "decisionReason" TEXT,
ADD COLUMN     "sandbox" JSONB,
ADD COLUMN     "sandboxMode" TEXT,
ADD COLUMN     "supersededById" TEXT;

-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN     "agentResult" JSONB,
ADD COLUMN     "pushed" JSONB;

-- AlterTable
ALTER TABLE "CheckResult" ADD COLUMN     "testCases" JSONB,
ADD COLUMN     "warning" TEXT;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "agentNetwork" "Network" NOT NULL DEFAULT 'on',
ADD COLUMN     "budgetUsd" DOUBLE PRECISION,
ADD COLUMN     "checkNetwork" "Network" NOT NULL DEFAULT 'on',
ADD COLUMN     "sandboxMounts" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "visibleRefs" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "budgetUsd" DOUBLE PRECISION;


-- Lanes and stages (issue 26): the Work's lanes and autoAdvance, the task's lane and stage, the run's frozen
-- lane and the stage it ran.
ALTER TABLE "Work" ADD COLUMN     "lanes" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "autoAdvance" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Task" ADD COLUMN     "lane" TEXT,
ADD COLUMN     "stage" TEXT;
ALTER TABLE "Run" ADD COLUMN     "lane" JSONB,
ADD COLUMN     "stage" TEXT;
