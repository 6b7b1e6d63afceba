-- AlterEnum
ALTER TYPE "CheckKind" ADD VALUE 'proof';

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "proof" JSONB;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "protectedPaths" JSONB,
ADD COLUMN     "requireTests" "ChecksPolicy" NOT NULL DEFAULT 'warn',
ADD COLUMN     "testPatterns" JSONB,
ADD COLUMN     "vacuousPolicy" "ChecksPolicy" NOT NULL DEFAULT 'warn';

