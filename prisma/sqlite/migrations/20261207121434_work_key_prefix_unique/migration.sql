-- A Work that shares its key prefix with an older one gets the first of it with 2, 3, … that no Work holds
-- (the oldest keeps it; "Web", "Web", "Web 2" → WEB, WEB3, WEB2), as freeKeyPrefix picks for a new Work; the
-- keys its tasks already have are kept. One Work at a time (a recursive CTE carrying the prefixes taken so far).
CREATE TEMP TABLE "WorkKeyPrefixRenamed" AS
WITH RECURSIVE
  "ranked" AS (
    SELECT "id", "keyPrefix" AS "base",
      ROW_NUMBER() OVER (PARTITION BY "keyPrefix" ORDER BY "createdAt", "id") AS "k"
    FROM "Work"
  ),
  "later" AS (
    SELECT "id", "base", ROW_NUMBER() OVER (ORDER BY "base", "k") AS "i" FROM "ranked" WHERE "k" > 1
  ),
  -- Enough suffixes: at most COUNT(*) prefixes are held at any time.
  "n"("v") AS (SELECT 2 UNION ALL SELECT "v" + 1 FROM "n" WHERE "v" < (SELECT COUNT(*) FROM "Work") + 2),
  "picked"("i", "id", "keyPrefix", "taken") AS (
    SELECT 0, NULL, NULL, ',' || (SELECT group_concat(DISTINCT "keyPrefix") FROM "Work") || ','
    UNION ALL
    SELECT "later"."i", "later"."id",
      (SELECT "later"."base" || "v" FROM "n"
        WHERE instr("picked"."taken", ',' || "later"."base" || "v" || ',') = 0 ORDER BY "v" LIMIT 1),
      "picked"."taken" || (SELECT "later"."base" || "v" FROM "n"
        WHERE instr("picked"."taken", ',' || "later"."base" || "v" || ',') = 0 ORDER BY "v" LIMIT 1) || ','
    FROM "picked" JOIN "later" ON "later"."i" = "picked"."i" + 1
  )
SELECT "id", "keyPrefix" FROM "picked" WHERE "i" > 0;
UPDATE "Work" SET "keyPrefix" = (SELECT "r"."keyPrefix" FROM "WorkKeyPrefixRenamed" AS "r" WHERE "r"."id" = "Work"."id")
WHERE "id" IN (SELECT "id" FROM "WorkKeyPrefixRenamed");
DROP TABLE "WorkKeyPrefixRenamed";

-- The Work that kept a prefix numbers its next task past every key made with it, its own or a renamed
-- Work's (whose tasks kept theirs), so no new key repeats an old one.
UPDATE "Work" SET "nextTaskNumber" = (
  SELECT MAX("t"."number") + 1 FROM "Task" AS "t" WHERE "t"."key" = "Work"."keyPrefix" || '-' || CAST("t"."number" AS TEXT)
)
WHERE "nextTaskNumber" <= (
  SELECT MAX("t"."number") FROM "Task" AS "t" WHERE "t"."key" = "Work"."keyPrefix" || '-' || CAST("t"."number" AS TEXT)
);

-- CreateIndex
CREATE UNIQUE INDEX "Work_keyPrefix_key" ON "Work"("keyPrefix");
