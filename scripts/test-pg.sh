#!/usr/bin/env bash
# The PostgreSQL suite: the database and runner integration tests again, against PostgreSQL
# (each test file in a fresh schema). Uses TEST_DATABASE_URL, or the local server on 127.0.0.1:5432.
set -euo pipefail
cd "$(dirname "$0")/.."
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
probe="const {Client}=require('pg');const c=new Client({connectionString:process.env.TEST_DATABASE_URL});"
probe+="c.connect().then(()=>c.end()).catch(e=>{console.error(e.message);process.exit(1)})"
if ! node -e "$probe"; then
  echo "gatehouse: PostgreSQL is not reachable at $TEST_DATABASE_URL (start it, or set TEST_DATABASE_URL)" >&2
  exit 1
fi
# lib/db/client.test.ts is about the embedded SQLite connection's settings, so it is not run here; nor are
# the runner's processes, output and sandbox folders, whose tests open no database (`npm test` runs them).
npx vitest run app lib/db lib/runner lib/services --exclude lib/db/client.test.ts \
  --exclude "lib/runner/process/**" --exclude "lib/runner/output/**" --exclude "lib/runner/sandbox/**"
