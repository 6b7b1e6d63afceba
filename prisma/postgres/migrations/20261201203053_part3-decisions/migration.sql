-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "decisionReason" TEXT,
ADD COLUMN     "supersededById" TEXT;

