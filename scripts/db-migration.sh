#!/usr/bin/env bash
# Writes a new migration for both providers from the change to prisma/models since the last commit.
# Usage: npm run db:migration -- NAME   (prisma migrate dev needs a shadow database; this does not)
# MIGRATION_BASE=<commit> diffs against that commit's models instead (to fold several branches' changes into one).
set -euo pipefail
base=${MIGRATION_BASE:-HEAD}
name=${1:?usage: npm run db:migration -- NAME}
cd "$(dirname "$0")/.."
# The SQLite config opens the data dir's database: it must exist (a fresh checkout has none).
mkdir -p "${GATEHOUSE_DATA_DIR:-data}"
stamp=$(date -u +%Y%m%d%H%M%S)
prev=$(mktemp -d)
trap 'rm -rf "$prev"' EXIT
for provider in sqlite postgres; do
  mkdir -p "$prev/$provider/models"
  cp "prisma/$provider/schema.prisma" "$prev/$provider/schema.prisma"
  if git cat-file -e "$base:prisma/models" 2>/dev/null; then
    git archive "$base" prisma/models | tar -x -C "$prev/$provider" --strip-components=2 -f - -C models 2>/dev/null \
      || {
        for f in $(git ls-tree --name-only "$base" prisma/models/); do
          git show "$base:$f" > "$prev/$provider/models/$(basename "$f")"
        done
      }
  fi
  out="prisma/$provider/migrations/${stamp}_${name}"
  mkdir -p "$out"
  if [ -z "$(ls "$prev/$provider/models")" ]; then
    from=(--from-empty)
  else
    from=(--from-schema-datamodel "$prev/$provider")
  fi
  # The SQLite adapter opens a database file even for a diff: give it a scratch data dir, not ./data.
  GATEHOUSE_DATA_DIR="$prev" env -u DATABASE_URL npx prisma migrate diff --config "prisma/$provider.config.ts" \
    "${from[@]}" --to-schema-datamodel "prisma/$provider" --script > "$out/migration.sql"
  echo "wrote $out/migration.sql"
  # CheckResult carries the check history's triggers (migration 20261203102215_check_days), which read Run
  # and Attempt: SQLite cannot rename a redefined Run or Attempt under them and drops them with a redefined
  # CheckResult; PostgreSQL refuses to change the type of a column they name. Such a migration must drop
  # them first and create them again after (copy them from that migration).
  if grep -qE 'new_(Run|Attempt|CheckResult)"|ALTER TABLE "CheckResult" ALTER COLUMN' "$out/migration.sql"; then
    echo "gatehouse: $out/migration.sql redefines a table the check history's triggers need:" \
      "drop the CheckResult_day_* triggers first and create them again after (see 20261203102215_check_days)" >&2
  fi
done
for provider in sqlite postgres; do
  [ -f "prisma/$provider/migrations/migration_lock.toml" ] \
    || printf 'provider = "%s"\n' "$([ $provider = postgres ] && echo postgresql || echo sqlite)" \
      > "prisma/$provider/migrations/migration_lock.toml"
done
