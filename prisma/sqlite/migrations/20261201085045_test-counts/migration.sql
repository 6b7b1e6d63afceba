-- AlterTable
ALTER TABLE "CheckResult" ADD COLUMN "tests" JSONB;

