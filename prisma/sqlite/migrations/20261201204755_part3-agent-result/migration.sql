-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN "agentResult" JSONB;

