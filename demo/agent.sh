#!/usr/bin/env bash
# The Gatehouse demo agent: a scripted stand-in for a coding agent. It reads the brief Gatehouse hands it
# (stdin and $GATEHOUSE_BRIEF_FILE), edits the checkout and commits. Its first attempt is incomplete and
# adds no test (the proof row "Tests were added" reports it); on the second it reads which checks failed,
# finishes the job and adds a test.
set -euo pipefail

echo "demo agent: attempt ${GATEHOUSE_ATTEMPT}, brief in ${GATEHOUSE_BRIEF_FILE}"
echo "demo agent: task: $(head -n 1 "$GATEHOUSE_BRIEF_FILE" | sed 's/^# //')"

if grep -q '^## What failed' "$GATEHOUSE_BRIEF_FILE"; then
  echo "demo agent: the brief says these checks failed last time:"
  grep '^### ' "$GATEHOUSE_BRIEF_FILE" | sed 's/^### /  - /'
  echo "demo agent: lower-casing and dropping punctuation as well"
  cat > src/slugify.js <<'JS'
// Turns a title into a URL slug: "Hello, World!" becomes "hello-world".
function slugify(title) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

module.exports = { slugify };
JS
  echo "demo agent: and a test for what the fix adds (digits stay)"
  cat >> test/slugify.test.js <<'JS'
test("keeps digits", () => assert.equal(slugify("Route 66, again"), "route-66-again"));
JS
  message="slugify: lower-case and drop punctuation, with a test"
else
  echo "demo agent: first try: joining words with dashes"
  cat > src/slugify.js <<'JS'
// Turns a title into a URL slug: "Hello, World!" becomes "hello-world".
function slugify(title) {
  // TODO: lower-case and drop punctuation
  return title.trim().split(/\s+/).join("-");
}

module.exports = { slugify };
JS
  message="slugify: join words with dashes"
fi

git add -A
if git diff --cached --quiet; then
  echo "demo agent: nothing to change"
else
  git commit --quiet -m "$message"
  echo "demo agent: committed \"$message\" ($(git rev-parse --short HEAD))"
fi
