// Turns a title into a URL slug: "Hello, World!" becomes "hello-world".
function slugify(title) {
  // TODO: lower-case, join words with "-", drop punctuation
  return title;
}

module.exports = { slugify };
