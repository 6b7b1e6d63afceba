-- AlterTable
ALTER TABLE "CheckResult" ADD COLUMN     "testCases" JSONB,
ADD COLUMN     "warning" TEXT;

