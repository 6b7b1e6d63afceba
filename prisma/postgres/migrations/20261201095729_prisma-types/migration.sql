-- CreateEnum
CREATE TYPE "Role" AS ENUM ('viewer', 'engineer', 'lead');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('queued', 'running', 'waiting', 'finished');

-- CreateEnum
CREATE TYPE "AttemptStatus" AS ENUM ('queued', 'agent', 'checks', 'finished');

-- CreateEnum
CREATE TYPE "Gate" AS ENUM ('pending', 'running', 'green', 'red', 'off');

-- CreateEnum
CREATE TYPE "Ending" AS ENUM ('accepted', 'partial', 'rejected', 'inconclusive');

-- CreateEnum
CREATE TYPE "Verdict" AS ENUM ('queued', 'running', 'passed', 'failed', 'hollow', 'timeout', 'error', 'skipped');

-- CreateEnum
CREATE TYPE "CheckKind" AS ENUM ('build', 'test', 'lint', 'typecheck', 'custom');

-- CreateEnum
CREATE TYPE "ChecksPolicy" AS ENUM ('off', 'warn', 'required');

-- AlterTable
-- Every column changes type in place (USING casts the stored text), so existing rows keep their values and the
-- indexes on these columns stay. A default is dropped and set again around the change: PostgreSQL cannot cast a
-- text default to an enum or jsonb by itself.
ALTER TABLE "Membership" ALTER COLUMN "role" TYPE "Role" USING "role"::"Role";

-- AlterTable
ALTER TABLE "Run" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "RunStatus" USING "status"::"RunStatus",
ALTER COLUMN "status" SET DEFAULT 'queued',
ALTER COLUMN "gate" DROP DEFAULT,
ALTER COLUMN "gate" TYPE "Gate" USING "gate"::"Gate",
ALTER COLUMN "gate" SET DEFAULT 'pending',
ALTER COLUMN "ending" TYPE "Ending" USING "ending"::"Ending",
ALTER COLUMN "policy" TYPE "ChecksPolicy" USING "policy"::"ChecksPolicy",
ALTER COLUMN "checks" TYPE JSONB USING "checks"::jsonb,
ALTER COLUMN "suppressed" DROP DEFAULT,
ALTER COLUMN "suppressed" TYPE JSONB USING "suppressed"::jsonb,
ALTER COLUMN "suppressed" SET DEFAULT '[]',
ALTER COLUMN "warnings" DROP DEFAULT,
ALTER COLUMN "warnings" TYPE JSONB USING "warnings"::jsonb,
ALTER COLUMN "warnings" SET DEFAULT '[]',
ALTER COLUMN "agentEnvPassthrough" DROP DEFAULT,
ALTER COLUMN "agentEnvPassthrough" TYPE JSONB USING "agentEnvPassthrough"::jsonb,
ALTER COLUMN "agentEnvPassthrough" SET DEFAULT '[]';

-- AlterTable
ALTER TABLE "Attempt" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "AttemptStatus" USING "status"::"AttemptStatus",
ALTER COLUMN "status" SET DEFAULT 'queued',
ALTER COLUMN "gate" DROP DEFAULT,
ALTER COLUMN "gate" TYPE "Gate" USING "gate"::"Gate",
ALTER COLUMN "gate" SET DEFAULT 'pending',
ALTER COLUMN "agentVerdict" TYPE "Verdict" USING "agentVerdict"::"Verdict";

-- AlterTable
ALTER TABLE "CheckResult" ALTER COLUMN "kind" TYPE "CheckKind" USING "kind"::"CheckKind",
ALTER COLUMN "verdict" DROP DEFAULT,
ALTER COLUMN "verdict" TYPE "Verdict" USING "verdict"::"Verdict",
ALTER COLUMN "verdict" SET DEFAULT 'queued';

-- AlterTable
ALTER TABLE "Work" ALTER COLUMN "checkDefaults" DROP DEFAULT,
ALTER COLUMN "checkDefaults" TYPE JSONB USING "checkDefaults"::jsonb,
ALTER COLUMN "checkDefaults" SET DEFAULT '[]',
ALTER COLUMN "checksPolicy" DROP DEFAULT,
ALTER COLUMN "checksPolicy" TYPE "ChecksPolicy" USING "checksPolicy"::"ChecksPolicy",
ALTER COLUMN "checksPolicy" SET DEFAULT 'required',
ALTER COLUMN "agentEnvPassthrough" DROP DEFAULT,
ALTER COLUMN "agentEnvPassthrough" TYPE JSONB USING "agentEnvPassthrough"::jsonb,
ALTER COLUMN "agentEnvPassthrough" SET DEFAULT '[]';

-- AlterTable
ALTER TABLE "Task" ALTER COLUMN "acceptanceChecks" TYPE JSONB USING "acceptanceChecks"::jsonb;
