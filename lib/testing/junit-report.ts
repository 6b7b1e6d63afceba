// A large JUnit report (10,000 tests, about 5 MB, 1 in 20 failing with a message and a 30-line trace), for
// the JUnit bench and the test that its parse leaves the event loop free.
const TESTS = 10_000;

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

// Shaped like pytest's and vitest's reports: suites of 100 tests, a class per suite, times on every case.
export function makeLargeJunitReport(): string {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="bench" tests="10000">'];
  for (let s = 0; s < TESTS / 100; s++) {
    parts.push(`  <testsuite name="suite ${s}" file="tests/module_${s}/test_things.py" tests="100">`);
    for (let t = 0; t < 100; t++) {
      const name = `test_behaviour_${s}_${t}_keeps_the_contract_when_the_input_is_large_and_the_cache_is_cold`;
      const head = `    <testcase classname="tests.module_${s}.test_things.TestThings${s}" name="${name}" time="0.00${t % 10}">`;
      if ((s * 100 + t) % 20 !== 0) {
        // Padding comparable to real reports' captured output, so 10,000 tests weigh about 5 MB.
        parts.push(`${head}<system-out>${"collected output line ".repeat(3)}</system-out></testcase>`);
        continue;
      }
      const trace = Array.from(
        { length: 30 },
        (_, i) => `  File "tests/module_${s}/test_things.py", line ${i + 10}, in ${name}\n    assert value == expected`,
      ).join("\n");
      parts.push(
        `${head}<failure message="${escapeXml(`AssertionError: assert <Value ${t}> == 'expected & more'`)}">${escapeXml(trace)}</failure></testcase>`,
      );
    }
    parts.push("  </testsuite>");
  }
  parts.push("</testsuites>\n");
  return parts.join("\n");
}
