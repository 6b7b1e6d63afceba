-- A Work that shares its key prefix with an older one gets it with 2, 3, … (the oldest keeps it), so the
-- keys of new tasks name one task across Works; the keys its tasks already have are kept (audit entries,
-- webhooks sent and branch names name them). Computed first: rows an UPDATE changed are seen by its later rows.
CREATE TEMP TABLE "WorkKeyPrefixRenamed" AS
SELECT "id", "keyPrefix" || CAST(1 + (
    SELECT COUNT(*) FROM "Work" AS "older"
    WHERE "older"."keyPrefix" = "Work"."keyPrefix"
      AND ("older"."createdAt" < "Work"."createdAt" OR ("older"."createdAt" = "Work"."createdAt" AND "older"."id" < "Work"."id"))
  ) AS TEXT) AS "keyPrefix"
FROM "Work"
WHERE EXISTS (
  SELECT 1 FROM "Work" AS "older"
  WHERE "older"."keyPrefix" = "Work"."keyPrefix"
    AND ("older"."createdAt" < "Work"."createdAt" OR ("older"."createdAt" = "Work"."createdAt" AND "older"."id" < "Work"."id"))
);
UPDATE "Work" SET "keyPrefix" = (SELECT "r"."keyPrefix" FROM "WorkKeyPrefixRenamed" AS "r" WHERE "r"."id" = "Work"."id")
WHERE "id" IN (SELECT "id" FROM "WorkKeyPrefixRenamed");
DROP TABLE "WorkKeyPrefixRenamed";

-- CreateIndex
CREATE UNIQUE INDEX "Work_keyPrefix_key" ON "Work"("keyPrefix");
