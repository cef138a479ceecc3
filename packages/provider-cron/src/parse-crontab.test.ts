import { readFileSync } from "node:fs";
import { TendError } from "@tend/core";
import { describe, expect, it } from "vitest";
import { parseCrontab } from "./parse-crontab.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");

function damage(text: string): string {
  try {
    parseCrontab(text, "alice");
  } catch (error) {
    if (TendError.isInstance(error) && error.code === "TEND_CRONTAB_DAMAGED") return error.message;
    throw error;
  }
  throw new Error("parsed without complaint");
}

describe("parseCrontab", () => {
  it("finds tend's block in a real `crontab -l` and keeps every other line", () => {
    const text = fixture("crontab-l-alice.stdout");
    const parsed = parseCrontab(text, "alice");
    expect(parsed.blocks).toEqual(new Map([["backup", "# BEGIN tend:backup\n30 2 * * * restic backup ~/Documents\n# END tend:backup\n"]]));
    expect(parsed.units.map((u) => u.kind)).toEqual(["line", "line", "line", "line", "block", "line"]);
    expect(parsed.units.find((u) => u.kind === "block")).toMatchObject({ line: 5 });
    expect(parsed.units.map((u) => u.text).join("")).toBe(text);
  });

  it("reads an empty crontab and one without a final newline", () => {
    expect(parseCrontab("", "alice").units).toEqual([]);
    const parsed = parseCrontab("# mine\n# BEGIN tend:a\n* * * * * x\n# END tend:a", "alice");
    expect(parsed.blocks.get("a")).toBe("# BEGIN tend:a\n* * * * * x\n# END tend:a");
  });

  it("takes comments that merely mention tend for the user's", () => {
    const text = "# BEGIN tending the garden\n# the END of tend\n#BEGIN\n";
    expect(parseCrontab(text, "alice").units).toHaveLength(3);
  });

  it("refuses a BEGIN without END, saying where", () => {
    expect(damage("# mine\n# BEGIN tend:backup\n30 2 * * * x\n")).toBe(
      "the crontab of alice has damaged tend markers: line 2, `# BEGIN tend:backup`, has no `# END tend:backup` after it",
    );
  });

  it("refuses an END without BEGIN", () => {
    expect(damage("* * * * * x\n# END tend:backup\n")).toBe(
      "the crontab of alice has damaged tend markers: line 2, `# END tend:backup`, has no `# BEGIN tend:backup` before it",
    );
  });

  it("refuses a BEGIN inside an open block (a lost END)", () => {
    expect(damage("# BEGIN tend:a\n* * * * * x\n# BEGIN tend:b\n* * * * * y\n# END tend:b\n")).toBe(
      "the crontab of alice has damaged tend markers: line 3, `# BEGIN tend:b`, is inside the block tend:a, which line 1 opens and nothing closes",
    );
  });

  it("refuses an END for another block", () => {
    expect(damage("# BEGIN tend:a\n* * * * * x\n# END tend:b\n")).toBe(
      "the crontab of alice has damaged tend markers: line 3, `# END tend:b`, ends a block that line 1 began as tend:a",
    );
  });

  it("refuses the same block twice", () => {
    const block = "# BEGIN tend:a\n* * * * * x\n# END tend:a\n";
    expect(damage(`${block}# mine\n${block}`)).toBe("the crontab of alice has damaged tend markers: lines 1 and 5 both begin tend:a");
  });

  it("refuses a marker that is almost right", () => {
    for (const line of ["# END tend:a ", "#BEGIN tend:a", "# begin tend:a", "  # END tend:a", "# END tend:a\r", "# BEGIN  tend:a"]) {
      expect(damage(`# BEGIN tend:a\n${line}\n`)).toMatch(/looks like a tend marker but is not exactly one|is inside the block/);
    }
    expect(damage("# BEGIN tend:\n")).toBe("the crontab of alice has damaged tend markers: line 1, `# BEGIN tend:`, looks like a tend marker but is not exactly one");
    expect(damage("# BEGIN tend:a b\n")).toContain("is not exactly one");
  });

  it("hints at the fix", () => {
    try {
      parseCrontab("# END tend:a\n", "alice");
    } catch (error) {
      expect((error as TendError).hint).toContain("crontab -e");
    }
  });
});
