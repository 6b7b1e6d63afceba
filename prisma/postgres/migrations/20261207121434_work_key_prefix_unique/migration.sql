-- A Work that shares its key prefix with an older one gets the first of it with 2, 3, … that no Work holds
-- (the oldest keeps it, "Web", "Web", "Web 2" → WEB, WEB3, WEB2), as freeKeyPrefix picks for a new Work, one
-- Work at a time. The keys its tasks already have are kept. One statement with no semicolon inside: the
-- pg driver adapter that applies migrations splits a script at every semicolon.
UPDATE "Work" AS "w" SET "keyPrefix" = "renamed"."keyPrefix"
FROM (
  WITH RECURSIVE
    "ranked" AS (
      SELECT "id", "keyPrefix" AS "base",
        ROW_NUMBER() OVER (PARTITION BY "keyPrefix" ORDER BY "createdAt", "id") AS "k"
      FROM "Work"
    ),
    "later" AS (
      SELECT "id", "base", ROW_NUMBER() OVER (ORDER BY "base", "k") AS "i" FROM "ranked" WHERE "k" > 1
    ),
    "picked"("i", "id", "keyPrefix", "taken") AS (
      SELECT 0::BIGINT, NULL::TEXT, NULL::TEXT, ARRAY(SELECT DISTINCT "keyPrefix" FROM "Work")
      UNION ALL
      SELECT "later"."i", "later"."id", "pick"."p", "picked"."taken" || "pick"."p"
      FROM "picked"
      JOIN "later" ON "later"."i" = "picked"."i" + 1
      CROSS JOIN LATERAL (
        SELECT "later"."base" || "v" AS "p"
        FROM generate_series(2, (SELECT COUNT(*) FROM "Work") + 2) AS "v"
        WHERE NOT ("later"."base" || "v") = ANY ("picked"."taken")
        ORDER BY "v" LIMIT 1
      ) AS "pick"
    )
  SELECT "id", "keyPrefix" FROM "picked" WHERE "i" > 0
) AS "renamed"
WHERE "renamed"."id" = "w"."id";

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
