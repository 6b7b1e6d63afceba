-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "strictEvaluation" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN     "reportNotes" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "strictEvaluation" BOOLEAN NOT NULL DEFAULT false;

