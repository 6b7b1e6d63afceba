-- CreateTable
CREATE TABLE "CheckDay" (
    "workId" TEXT NOT NULL,
    "checkId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "passed" INTEGER NOT NULL DEFAULT 0,
    "flaky" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CheckDay_pkey" PRIMARY KEY ("workId","checkId","day")
);

-- AddForeignKey
ALTER TABLE "CheckDay" ADD CONSTRAINT "CheckDay_workId_fkey" FOREIGN KEY ("workId") REFERENCES "Work"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- CreateIndex
CREATE INDEX "CheckDay_workId_day_idx" ON "CheckDay"("workId", "day");

-- The counts follow every write to CheckResult: a row counts when it ran to a verdict in its own attempt
-- (logAttempt = the attempt's n; a copy kept by an attempt with no change does not), on the UTC day of
-- its run's creation. The runner rewrites an attempt's rows as they change (delete, insert): each delete
-- takes its row's part back out and each insert puts it in, so the counts are the rows as they stand.
CREATE FUNCTION "check_day_count"(cr "CheckResult", sign INTEGER) RETURNS VOID
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  work_id TEXT;
  run_day TEXT;
BEGIN
  IF cr."verdict"::text NOT IN ('passed', 'failed', 'hollow', 'timeout', 'error') THEN RETURN; END IF;
  SELECT r."workId", to_char(r."createdAt", 'YYYY-MM-DD') INTO work_id, run_day
  FROM "Run" r JOIN "Attempt" a ON a."id" = cr."attemptId" AND a."n" = cr."logAttempt"
  WHERE r."id" = cr."runId";
  -- Not found: not its own attempt's, or its run is being deleted (the Work's counts go with the Work).
  IF NOT FOUND THEN RETURN; END IF;
  -- One writer per Work and day until it commits: the runner rewrites an attempt's rows as a delete and an
  -- insert, so two runs of a Work would otherwise lock the same days' rows in opposite orders (a deadlock).
  PERFORM pg_advisory_xact_lock(hashtext('gatehouse check day ' || work_id || ' ' || run_day));
  IF sign < 0 THEN
    -- Taken out of a day that is there (a row whose Work is being deleted finds none: nothing is made).
    UPDATE "CheckDay" SET "runs" = "runs" - 1,
      "passed" = "passed" - CASE WHEN cr."verdict"::text = 'passed' THEN 1 ELSE 0 END,
      "flaky" = "flaky" - CASE WHEN cr."flaky" THEN 1 ELSE 0 END
    WHERE "workId" = work_id AND "checkId" = cr."checkId" AND "day" = run_day;
    RETURN;
  END IF;
  INSERT INTO "CheckDay" ("workId", "checkId", "day", "name", "runs", "passed", "flaky")
  VALUES (work_id, cr."checkId", run_day, cr."name", 1,
    CASE WHEN cr."verdict"::text = 'passed' THEN 1 ELSE 0 END, CASE WHEN cr."flaky" THEN 1 ELSE 0 END)
  ON CONFLICT ("workId", "checkId", "day") DO UPDATE SET "runs" = "CheckDay"."runs" + 1,
    "passed" = "CheckDay"."passed" + excluded."passed", "flaky" = "CheckDay"."flaky" + excluded."flaky",
    "name" = excluded."name";
END;
$$;

CREATE FUNCTION "check_day_trigger"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM "check_day_count"(OLD, -1); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM "check_day_count"(NEW, 1); END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "CheckResult_day_insert" AFTER INSERT ON "CheckResult"
FOR EACH ROW EXECUTE FUNCTION "check_day_trigger"();

CREATE TRIGGER "CheckResult_day_delete" AFTER DELETE ON "CheckResult"
FOR EACH ROW EXECUTE FUNCTION "check_day_trigger"();

CREATE TRIGGER "CheckResult_day_update" AFTER UPDATE OF "verdict", "flaky", "logAttempt", "checkId" ON "CheckResult"
FOR EACH ROW
WHEN (OLD."verdict" IS DISTINCT FROM NEW."verdict" OR OLD."flaky" IS DISTINCT FROM NEW."flaky"
  OR OLD."logAttempt" IS DISTINCT FROM NEW."logAttempt" OR OLD."checkId" IS DISTINCT FROM NEW."checkId")
EXECUTE FUNCTION "check_day_trigger"();

-- The results already stored.
INSERT INTO "CheckDay" ("workId", "checkId", "day", "name", "runs", "passed", "flaky")
SELECT r."workId", cr."checkId", to_char(r."createdAt", 'YYYY-MM-DD'), MAX(cr."name"), COUNT(*),
  SUM(CASE WHEN cr."verdict"::text = 'passed' THEN 1 ELSE 0 END), SUM(CASE WHEN cr."flaky" THEN 1 ELSE 0 END)
FROM "CheckResult" cr
JOIN "Attempt" a ON a."id" = cr."attemptId" AND a."n" = cr."logAttempt"
JOIN "Run" r ON r."id" = cr."runId"
WHERE cr."verdict"::text IN ('passed', 'failed', 'hollow', 'timeout', 'error')
GROUP BY r."workId", cr."checkId", to_char(r."createdAt", 'YYYY-MM-DD');
