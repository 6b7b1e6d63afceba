// Where JSON text first goes wrong, as a person reads it: "Unexpected token } at line 3, column 1".
// JSON.parse says whether the text is valid; when it is not, this scanner (iterative, so nesting depth
// cannot overflow the stack) finds the first offending character and its line and column.

type Frame = { kind: "object" | "array"; expect: "key-or-end" | "key" | "colon" | "value" | "comma-or-end" };

export function describeJsonError(text: string): string {
  let i = 0;
  const stack: Frame[] = [];
  const at = (message: string, index = i) => {
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < index && k < text.length; k++)
      if (text.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    return `${message} at line ${line}, column ${index - lineStart + 1}`;
  };
  const unexpected = () =>
    i >= text.length
      ? at("Unexpected end of JSON")
      : at(`Unexpected token ${text[i] < " " ? JSON.stringify(text[i]).slice(1, -1) : text[i]}`);
  const skipSpace = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  // Reads one scalar at i, or opens a container; returns an error message or null.
  const readValue = (): string | null => {
    const c = text[i];
    if (c === "{") {
      stack.push({ kind: "object", expect: "key-or-end" });
      i++;
      return null;
    }
    if (c === "[") {
      stack.push({ kind: "array", expect: "value" });
      i++;
      skipSpace();
      if (text[i] === "]") {
        stack.pop();
        i++;
        afterValue();
      }
      return null;
    }
    if (c === '"') return readString();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal) return unexpected();
    i += literal[0].length;
    afterValue();
    return null;
  };
  const readString = (): string | null => {
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        afterValue();
        return null;
      }
      if (c < 32) return at("Bad control character in string");
      if (c === 92) {
        const e = text[i + 1];
        if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return at("Bad escape in string", i + 1);
      } else i++;
    }
    return at("Unterminated string");
  };
  // A value (or a key) just ended: the enclosing container moves on.
  const afterValue = () => {
    const top = stack.at(-1);
    if (!top) return;
    top.expect =
      top.kind === "object" && (top.expect === "key" || top.expect === "key-or-end") ? "colon" : "comma-or-end";
  };

  skipSpace();
  if (i >= text.length) return at("Unexpected end of JSON (the file is empty)");
  const first = readValue();
  if (first) return first;
  for (;;) {
    skipSpace();
    const top = stack.at(-1);
    if (!top) return i < text.length ? at("Unexpected text after the JSON value") : "valid JSON";
    if (i >= text.length) return at("Unexpected end of JSON");
    const c = text[i];
    if (top.expect === "key-or-end" || top.expect === "key") {
      if (c === "}" && top.expect === "key-or-end") {
        stack.pop();
        i++;
        afterValue();
      } else if (c === '"') {
        const problem = readString();
        if (problem) return problem;
      } else return unexpected();
    } else if (top.expect === "colon") {
      if (c !== ":") return unexpected();
      i++;
      top.expect = "value";
      skipSpace();
      const problem = readValue();
      if (problem) return problem;
    } else if (top.expect === "value") {
      const problem = readValue();
      if (problem) return problem;
    } else if (c === ",") {
      i++;
      top.expect = top.kind === "object" ? "key" : "value";
      if (top.kind === "array") {
        skipSpace();
        const problem = readValue();
        if (problem) return problem;
      }
    } else if ((c === "}" && top.kind === "object") || (c === "]" && top.kind === "array")) {
      stack.pop();
      i++;
      afterValue();
    } else return unexpected();
  }
}
