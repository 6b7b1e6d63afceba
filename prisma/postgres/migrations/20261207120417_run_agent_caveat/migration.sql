-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "agentCaveat" TEXT;

