-- CreateIndex
CREATE INDEX "Run_status_finishedAt_idx" ON "Run"("status", "finishedAt");

-- CreateIndex
CREATE INDEX "Run_workId_finishedAt_idx" ON "Run"("workId", "finishedAt");

