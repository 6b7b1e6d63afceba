-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN     "pushed" JSONB;

