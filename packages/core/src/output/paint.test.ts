import { afterEach, describe, expect, it } from "vitest";
import { colourWanted, painter } from "./paint.js";

describe("colour", () => {
  const saved = process.env.NO_COLOR;
  afterEach(() => {
    if (saved === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = saved;
  });

  it("is used only on a terminal, and never with NO_COLOR", () => {
    delete process.env.NO_COLOR;
    expect(colourWanted({ isTTY: true })).toBe(true);
    expect(colourWanted({ isTTY: false })).toBe(false);
    process.env.NO_COLOR = "1";
    expect(colourWanted({ isTTY: true })).toBe(false);
  });

  it("paints with ANSI codes, or not at all", () => {
    expect(painter(true).green("+")).toBe("\u001b[32m+\u001b[0m");
    expect(painter(false).green("+")).toBe("+");
  });
});
