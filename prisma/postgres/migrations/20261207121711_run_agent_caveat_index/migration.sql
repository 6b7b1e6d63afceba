-- CreateIndex
CREATE INDEX "Run_agentCaveat_finishedAt_idx" ON "Run"("agentCaveat", "finishedAt");
