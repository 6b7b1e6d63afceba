#!/usr/bin/env bash
# The Gatehouse stages demo agent: a scripted stand-in for a coding agent working a lane of two stages. It
# reads its stage from the stage brief's first line ("# Stage brief: <key> <stage>"). Research: its first
# attempt cites one source (the stage wants two); told so in "Feedback on this stage", it adds a second.
# Build: the slugify fix, with a test.
set -euo pipefail

stage=$(head -n 1 "$GATEHOUSE_BRIEF_FILE" | awk '{print $NF}')
echo "stages demo agent: attempt ${GATEHOUSE_ATTEMPT} of stage ${stage}"

case "$stage" in
  research)
    mkdir -p docs
    {
      echo "# Research: URL slugs"
      echo
      echo "verdict: lower-case, replace every run of non-alphanumerics with one dash, trim dashes"
      echo
      echo "- source: https://developer.mozilla.org/en-US/docs/Glossary/Slug — what a slug is"
      if grep -q '^## Feedback on this stage' "$GATEHOUSE_BRIEF_FILE"; then
        echo "stages demo agent: the stage wants more sources; adding a second" >&2
        echo "- source: https://www.rfc-editor.org/rfc/rfc3986 — which characters a URL path may hold"
      fi
    } > docs/research.md
    message="research: URL slugs"
    ;;
  build)
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
    cat >> test/slugify.test.js <<'JS'
test("keeps digits", () => assert.equal(slugify("Route 66, again"), "route-66-again"));
JS
    message="slugify: lower-case and drop punctuation, with a test"
    ;;
  *)
    echo "stages demo agent: no stage in the brief" >&2
    exit 1
    ;;
esac

git add -A
if git diff --cached --quiet; then
  echo "stages demo agent: nothing to change"
else
  git commit --quiet -m "$message"
  echo "stages demo agent: committed \"$message\" ($(git rev-parse --short HEAD))"
fi
