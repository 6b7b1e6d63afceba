-- AlterTable
ALTER TABLE "Run" ADD COLUMN "sandbox" TEXT;

