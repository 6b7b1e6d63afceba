import { describe, expect, it } from "vitest";
import { ByteRing } from "./byte-ring";

const text = (ring: ByteRing) => Buffer.concat(ring.views()).toString();

describe("ByteRing", () => {
  it("keeps exactly the last `capacity` bytes, in order, across wrap-arounds", () => {
    const ring = new ByteRing(10);
    ring.push(Buffer.from("abcdef"));
    expect(text(ring)).toBe("abcdef");
    ring.push(Buffer.from("ghijkl"));
    expect(text(ring)).toBe("cdefghijkl");
    expect(ring.length).toBe(10);
    for (const ch of "mnopq") ring.push(Buffer.from(ch));
    expect(text(ring)).toBe("hijklmnopq");
  });

  it("a push larger than the ring keeps its last bytes", () => {
    const ring = new ByteRing(4);
    ring.push(Buffer.from("xy"));
    ring.push(Buffer.from("0123456789"));
    expect(text(ring)).toBe("6789");
    ring.push(Buffer.from("a"));
    expect(text(ring)).toBe("789a");
  });

  it("copies what is pushed, so the caller may reuse its buffer", () => {
    const ring = new ByteRing(8);
    const scratch = Buffer.from("1234");
    ring.push(scratch);
    scratch.write("zzzz");
    expect(text(ring)).toBe("1234");
  });

  it("last(n) is a copy of the newest n bytes", () => {
    const ring = new ByteRing(6);
    ring.push(Buffer.from("abcdefgh"));
    const last = ring.last(3);
    expect(last.toString()).toBe("fgh");
    ring.push(Buffer.from("XYZ"));
    expect(last.toString()).toBe("fgh");
    expect(ring.last(100).toString()).toBe("fghXYZ");
  });

  it("is empty after release and can be used again", () => {
    const ring = new ByteRing(5);
    ring.push(Buffer.from("hello"));
    ring.release();
    expect(ring.length).toBe(0);
    expect(ring.views()).toEqual([]);
    ring.push(Buffer.from("hi"));
    expect(text(ring)).toBe("hi");
  });

  it("refuses a capacity that is not a positive whole number", () => {
    expect(() => new ByteRing(0)).toThrow(/positive whole capacity/);
    expect(() => new ByteRing(1.5)).toThrow(/positive whole capacity/);
  });
});
