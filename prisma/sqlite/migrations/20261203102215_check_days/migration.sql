-- CreateTable
CREATE TABLE "CheckDay" (
    "workId" TEXT NOT NULL,
    "checkId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "passed" INTEGER NOT NULL DEFAULT 0,
    "flaky" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("workId", "checkId", "day"),
    CONSTRAINT "CheckDay_workId_fkey" FOREIGN KEY ("workId") REFERENCES "Work" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);


-- CreateIndex
CREATE INDEX "CheckDay_workId_day_idx" ON "CheckDay"("workId", "day");

-- The counts follow every write to CheckResult: a row counts when it ran to a verdict in its own attempt
-- (logAttempt = the attempt's n; a copy kept by an attempt with no change does not), on the UTC day of
-- its run's creation. The runner rewrites an attempt's rows as they change (delete, insert): each delete
-- takes its row's part back out and each insert puts it in, so the counts are the rows as they stand.
CREATE TRIGGER "CheckResult_day_insert" AFTER INSERT ON "CheckResult"
BEGIN
  INSERT INTO "CheckDay" ("workId", "checkId", "day", "name", "runs", "passed", "flaky")
  SELECT r."workId", NEW."checkId", substr(r."createdAt", 1, 10), NEW."name", 1,
    CASE WHEN NEW."verdict" = 'passed' THEN 1 ELSE 0 END, CASE WHEN NEW."flaky" THEN 1 ELSE 0 END
  FROM "Run" r
  WHERE r."id" = NEW."runId" AND CAST(NEW."verdict" AS TEXT) IN ('passed', 'failed', 'hollow', 'timeout', 'error')
    AND NEW."logAttempt" = (SELECT a."n" FROM "Attempt" a WHERE a."id" = NEW."attemptId")
  ON CONFLICT ("workId", "checkId", "day") DO UPDATE SET "runs" = "runs" + 1,
    "passed" = "passed" + excluded."passed", "flaky" = "flaky" + excluded."flaky", "name" = excluded."name";
END;

CREATE TRIGGER "CheckResult_day_delete" AFTER DELETE ON "CheckResult"
BEGIN
  UPDATE "CheckDay" SET "runs" = "runs" - 1,
    "passed" = "passed" - CASE WHEN OLD."verdict" = 'passed' THEN 1 ELSE 0 END,
    "flaky" = "flaky" - CASE WHEN OLD."flaky" THEN 1 ELSE 0 END
  WHERE "checkId" = OLD."checkId"
    AND "workId" = (SELECT r."workId" FROM "Run" r WHERE r."id" = OLD."runId")
    AND "day" = (SELECT substr(r."createdAt", 1, 10) FROM "Run" r WHERE r."id" = OLD."runId")
    AND CAST(OLD."verdict" AS TEXT) IN ('passed', 'failed', 'hollow', 'timeout', 'error')
    AND OLD."logAttempt" = (SELECT a."n" FROM "Attempt" a WHERE a."id" = OLD."attemptId");
END;

CREATE TRIGGER "CheckResult_day_update" AFTER UPDATE OF "verdict", "flaky", "logAttempt", "checkId" ON "CheckResult"
WHEN OLD."verdict" IS NOT NEW."verdict" OR OLD."flaky" IS NOT NEW."flaky"
  OR OLD."logAttempt" IS NOT NEW."logAttempt" OR OLD."checkId" IS NOT NEW."checkId"
BEGIN
  UPDATE "CheckDay" SET "runs" = "runs" - 1,
    "passed" = "passed" - CASE WHEN OLD."verdict" = 'passed' THEN 1 ELSE 0 END,
    "flaky" = "flaky" - CASE WHEN OLD."flaky" THEN 1 ELSE 0 END
  WHERE "checkId" = OLD."checkId"
    AND "workId" = (SELECT r."workId" FROM "Run" r WHERE r."id" = OLD."runId")
    AND "day" = (SELECT substr(r."createdAt", 1, 10) FROM "Run" r WHERE r."id" = OLD."runId")
    AND CAST(OLD."verdict" AS TEXT) IN ('passed', 'failed', 'hollow', 'timeout', 'error')
    AND OLD."logAttempt" = (SELECT a."n" FROM "Attempt" a WHERE a."id" = OLD."attemptId");
  INSERT INTO "CheckDay" ("workId", "checkId", "day", "name", "runs", "passed", "flaky")
  SELECT r."workId", NEW."checkId", substr(r."createdAt", 1, 10), NEW."name", 1,
    CASE WHEN NEW."verdict" = 'passed' THEN 1 ELSE 0 END, CASE WHEN NEW."flaky" THEN 1 ELSE 0 END
  FROM "Run" r
  WHERE r."id" = NEW."runId" AND CAST(NEW."verdict" AS TEXT) IN ('passed', 'failed', 'hollow', 'timeout', 'error')
    AND NEW."logAttempt" = (SELECT a."n" FROM "Attempt" a WHERE a."id" = NEW."attemptId")
  ON CONFLICT ("workId", "checkId", "day") DO UPDATE SET "runs" = "runs" + 1,
    "passed" = "passed" + excluded."passed", "flaky" = "flaky" + excluded."flaky", "name" = excluded."name";
END;

-- The results already stored.
INSERT INTO "CheckDay" ("workId", "checkId", "day", "name", "runs", "passed", "flaky")
SELECT r."workId", cr."checkId", substr(r."createdAt", 1, 10), MAX(cr."name"), COUNT(*),
  SUM(CASE WHEN cr."verdict" = 'passed' THEN 1 ELSE 0 END), SUM(CASE WHEN cr."flaky" THEN 1 ELSE 0 END)
FROM "CheckResult" cr
JOIN "Attempt" a ON a."id" = cr."attemptId" AND a."n" = cr."logAttempt"
JOIN "Run" r ON r."id" = cr."runId"
WHERE CAST(cr."verdict" AS TEXT) IN ('passed', 'failed', 'hollow', 'timeout', 'error')
GROUP BY r."workId", cr."checkId", substr(r."createdAt", 1, 10);
