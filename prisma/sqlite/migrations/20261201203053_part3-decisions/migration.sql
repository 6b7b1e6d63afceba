-- AlterTable
ALTER TABLE "Run" ADD COLUMN "decisionReason" TEXT;
ALTER TABLE "Run" ADD COLUMN "supersededById" TEXT;

