-- AlterTable
ALTER TABLE "CheckResult" ADD COLUMN "testCases" JSONB;
ALTER TABLE "CheckResult" ADD COLUMN "warning" TEXT;

