-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "proof" JSONB;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "protectedPaths" JSONB,
ADD COLUMN     "requireTests" TEXT NOT NULL DEFAULT 'warn',
ADD COLUMN     "testPatterns" JSONB,
ADD COLUMN     "vacuousPolicy" TEXT NOT NULL DEFAULT 'warn';

