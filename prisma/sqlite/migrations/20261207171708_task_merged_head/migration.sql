-- AlterTable
ALTER TABLE "Task" ADD COLUMN "mergedHead" TEXT;

