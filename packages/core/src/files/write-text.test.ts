import { closeSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writePieces, writeText } from "./write-text.js";

function written(write: (fd: number) => void): string {
  const path = join(mkdtempSync(join(tmpdir(), "tend-text-")), "out");
  const fd = openSync(path, "w");
  try {
    write(fd);
  } finally {
    closeSync(fd);
  }
  return readFileSync(path, "utf8");
}

describe("writeText and writePieces", () => {
  it("write a text bigger than a slice byte for byte, never splitting a surrogate pair", () => {
    // 4-, 2- and 3-byte characters; the first slice (65,536 units) would end between the halves of a pair.
    const text = `abc${"😀é€".repeat(70_000)}`;
    expect(text.charCodeAt(65_535)).toBe("😀".charCodeAt(0));
    expect(written((fd) => writeText(fd, text))).toBe(text);
    expect(written((fd) => writeText(fd, ""))).toBe("");
  });

  it("write pieces in order, small and big", () => {
    const pieces = ["{", ...Array.from({ length: 5_000 }, (_, i) => `"k${i}": "${"ü".repeat(i % 50)}",`), "x".repeat(200_000), "}"];
    expect(written((fd) => writePieces(fd, pieces))).toBe(pieces.join(""));
    expect(written((fd) => writePieces(fd, []))).toBe("");
  });
});
