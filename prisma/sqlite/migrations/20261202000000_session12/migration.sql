-- Session 12 (issues 21, 25, 26, 27): added after part3 had landed, so databases that applied it get these too.

-- Webhooks (issue 25 item 6): the Work's list, and one row per delivery request.
-- AlterTable
ALTER TABLE "Work" ADD COLUMN "webhooks" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "dueAt" DATETIME NOT NULL,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WebhookDelivery_workId_fkey" FOREIGN KEY ("workId") REFERENCES "Work" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "WebhookDelivery_workId_webhookId_createdAt_idx" ON "WebhookDelivery"("workId", "webhookId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_state_dueAt_idx" ON "WebhookDelivery"("state", "dueAt");

-- requireTestSummary (issue 21, item 6): a passing test check with no sign a test ran is hollow.
ALTER TABLE "Work" ADD COLUMN "requireTestSummary" BOOLEAN NOT NULL DEFAULT false;

-- Lanes and stages (issue 26): the Work's lanes and autoAdvance, the task's lane and stage, the run's frozen
-- lane and the stage it ran.
ALTER TABLE "Work" ADD COLUMN "lanes" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "Work" ADD COLUMN "autoAdvance" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Task" ADD COLUMN "lane" TEXT;
ALTER TABLE "Task" ADD COLUMN "stage" TEXT;
ALTER TABLE "Run" ADD COLUMN "lane" JSONB;
ALTER TABLE "Run" ADD COLUMN "stage" TEXT;
