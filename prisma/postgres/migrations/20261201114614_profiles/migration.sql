-- CreateEnum
CREATE TYPE "Profile" AS ENUM ('lite', 'standard', 'full');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "profile" "Profile" NOT NULL DEFAULT 'lite',
ADD COLUMN     "reviewCommand" TEXT;

-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN     "review" JSONB;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "profile" "Profile" NOT NULL DEFAULT 'standard',
ADD COLUMN     "reviewCommand" TEXT;


-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "mutationCommand" TEXT,
ADD COLUMN     "mutationReport" TEXT;

-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN     "mutation" JSONB;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "mutationCommand" TEXT,
ADD COLUMN     "mutationReport" TEXT;


-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "redTeamCommand" TEXT,
ADD COLUMN     "redTeamTestCommand" TEXT;

-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN     "redTeam" JSONB;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "redTeamCommand" TEXT,
ADD COLUMN     "redTeamTestCommand" TEXT;

