const test = require("node:test");
const assert = require("node:assert/strict");
const { slugify } = require("../src/slugify");

test("lower-cases", () => assert.equal(slugify("Hello"), "hello"));
test("joins words with dashes", () => assert.equal(slugify("red green blue"), "red-green-blue"));
test("drops punctuation", () => assert.equal(slugify("Hello, World!"), "hello-world"));
test("trims dashes at the ends", () => assert.equal(slugify("  --Gate house--  "), "gate-house"));
