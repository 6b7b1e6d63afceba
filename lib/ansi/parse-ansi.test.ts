import { describe, expect, it } from "vitest";
import { parseAnsi, parseAnsiLines, stylesAtLineStarts } from "./parse-ansi";

const ESC = "\u001b";

describe("parseAnsi", () => {
  it("splits text into styled segments and drops escapes that are not colours", () => {
    const { segments, style } = parseAnsi(
      `plain ${ESC}[1;31mbold red${ESC}[0m back ${ESC}]0;title${ESC}\\ ${ESC}[2Kend`,
    );
    expect(segments).toEqual([
      { text: "plain ", style: {} },
      { text: "bold red", style: { bold: true, fg: "red" } },
      { text: " back  end", style: {} },
    ]);
    expect(style).toEqual({});
  });

  it("starts from the style it is given and reports the style it ends in", () => {
    const { segments, style } = parseAnsi(`still green ${ESC}[4munderlined`, { fg: "green" });
    expect(segments[0]).toEqual({ text: "still green ", style: { fg: "green" } });
    expect(style).toEqual({ fg: "green", underline: true });
  });

  it("reads 256-colour and true-colour codes", () => {
    expect(parseAnsi(`${ESC}[38;5;196mx`).style.fg).toBe("rgb(255,0,0)");
    expect(parseAnsi(`${ESC}[48;2;1;2;3mx`).style.bg).toBe("rgb(1,2,3)");
    expect(parseAnsi(`${ESC}[38;5;9mx`).style.fg).toBe("bright-red");
  });
});

describe("colours across lines", () => {
  it("parseAnsiLines counts no output as no line, and a lone newline as one empty line", () => {
    expect(parseAnsiLines("")).toEqual([]);
    expect(parseAnsiLines("\n")).toHaveLength(1);
    expect(parseAnsiLines("a\nb")).toHaveLength(2);
  });

  it("parseAnsiLines carries a colour opened on one line into the next ones until reset", () => {
    const lines = parseAnsiLines(`${ESC}[31mFAIL one\ntwo\n${ESC}[0mthree\n`);
    expect(lines.map((l) => l.map((s) => s.style.fg ?? null))).toEqual([["red"], ["red"], [null]]);
  });

  it("stylesAtLineStarts gives each line the style it starts in, and the style after the last", () => {
    const { starts, end } = stylesAtLineStarts([
      `${ESC}[32mok start`,
      "still green",
      `${ESC}[1mbold too`,
      `${ESC}[0mplain`,
      "plain",
    ]);
    expect(starts).toEqual([{}, { fg: "green" }, { fg: "green" }, { fg: "green", bold: true }, {}]);
    expect(end).toEqual({});
  });

  it("continues from a given style and hands it on unchanged through lines without escapes", () => {
    const from = { fg: "yellow" };
    const { starts, end } = stylesAtLineStarts(["a", "b"], from);
    expect(starts).toEqual([from, from]);
    expect(starts[0]).toBe(from);
    expect(end).toBe(from);
  });
});
