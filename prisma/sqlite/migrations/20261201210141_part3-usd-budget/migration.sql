-- AlterTable
ALTER TABLE "Run" ADD COLUMN "budgetUsd" REAL;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN "budgetUsd" REAL;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN "budgetUsd" REAL;

