-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "checkSources" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "checkSources" JSONB NOT NULL DEFAULT '[]';

