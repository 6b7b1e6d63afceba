-- CreateEnum
CREATE TYPE "Network" AS ENUM ('on', 'off');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "budgetUsd" DOUBLE PRECISION,
ADD COLUMN     "decisionReason" TEXT,
ADD COLUMN     "sandbox" JSONB,
ADD COLUMN     "sandboxMode" TEXT,
ADD COLUMN     "supersededById" TEXT;

-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN     "agentResult" JSONB,
ADD COLUMN     "pushed" JSONB;

-- AlterTable
ALTER TABLE "CheckResult" ADD COLUMN     "testCases" JSONB,
ADD COLUMN     "warning" TEXT;

-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "agentNetwork" "Network" NOT NULL DEFAULT 'on',
ADD COLUMN     "budgetUsd" DOUBLE PRECISION,
ADD COLUMN     "checkNetwork" "Network" NOT NULL DEFAULT 'on',
ADD COLUMN     "sandboxMounts" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "visibleRefs" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "budgetUsd" DOUBLE PRECISION;


-- Webhooks (issue 25 item 6): the Work's list, and one row per delivery request.
-- AlterTable
ALTER TABLE "Work" ADD COLUMN     "webhooks" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "workId" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "webhookIndex" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "runId" TEXT,
    "deliveryId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "maxAttempts" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "statusCode" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER,
    "body" TEXT NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookDelivery_workId_webhookId_createdAt_idx" ON "WebhookDelivery"("workId", "webhookId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_state_dueAt_idx" ON "WebhookDelivery"("state", "dueAt");

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_workId_fkey" FOREIGN KEY ("workId") REFERENCES "Work"("id") ON DELETE CASCADE ON UPDATE CASCADE;
