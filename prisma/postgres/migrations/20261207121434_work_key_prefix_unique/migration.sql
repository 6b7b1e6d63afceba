-- A Work that shares its key prefix with an older one gets it with 2, 3, … (the oldest keeps it), so the
-- keys of new tasks name one task across Works; the keys its tasks already have are kept (audit entries,
-- webhooks sent and branch names name them).
UPDATE "Work" AS "w" SET "keyPrefix" = "ranked"."keyPrefix" || CAST("ranked"."n" AS TEXT)
FROM (
  SELECT "id", "keyPrefix", ROW_NUMBER() OVER (PARTITION BY "keyPrefix" ORDER BY "createdAt", "id") AS "n"
  FROM "Work"
) AS "ranked"
WHERE "ranked"."id" = "w"."id" AND "ranked"."n" > 1;

-- CreateIndex
CREATE UNIQUE INDEX "Work_keyPrefix_key" ON "Work"("keyPrefix");
