-- AlterTable
ALTER TABLE "Run" ADD COLUMN "proof" JSONB;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Work" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "repoUrl" TEXT NOT NULL,
    "baseBranch" TEXT,
    "keyPrefix" TEXT NOT NULL,
    "nextTaskNumber" INTEGER NOT NULL DEFAULT 1,
    "checkDefaults" JSONB NOT NULL DEFAULT '[]',
    "checksPolicy" TEXT NOT NULL DEFAULT 'required',
    "maxGateAttempts" INTEGER NOT NULL DEFAULT 3,
    "agentCommand" TEXT,
    "agentEnvPassthrough" JSONB NOT NULL DEFAULT '[]',
    "budgetSec" INTEGER,
    "failFast" BOOLEAN NOT NULL DEFAULT false,
    "testPatterns" JSONB,
    "requireTests" TEXT NOT NULL DEFAULT 'warn',
    "protectedPaths" JSONB,
    "vacuousPolicy" TEXT NOT NULL DEFAULT 'warn',
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Work" ("agentCommand", "agentEnvPassthrough", "baseBranch", "budgetSec", "checkDefaults", "checksPolicy", "createdAt", "failFast", "id", "keyPrefix", "maxGateAttempts", "name", "nextTaskNumber", "repoUrl", "updatedAt", "version") SELECT "agentCommand", "agentEnvPassthrough", "baseBranch", "budgetSec", "checkDefaults", "checksPolicy", "createdAt", "failFast", "id", "keyPrefix", "maxGateAttempts", "name", "nextTaskNumber", "repoUrl", "updatedAt", "version" FROM "Work";
DROP TABLE "Work";
ALTER TABLE "new_Work" RENAME TO "Work";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

