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

