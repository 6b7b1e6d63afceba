-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "budgetUsd" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "budgetUsd" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "budgetUsd" DOUBLE PRECISION;

