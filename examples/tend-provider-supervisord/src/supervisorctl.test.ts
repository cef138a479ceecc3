import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { failureOf, outcomesByName } from "./supervisorctl.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const result = (stdout: string, exitCode = 1) => ({ argv: ["supervisorctl", "start"], exitCode, stdout, stderr: "" });

describe("outcomesByName", () => {
  it("files update's lines under each program, the unknown group included", () => {
    const outcomes = outcomesByName(fixture("update.txt"));
    expect(Object.fromEntries(outcomes)).toEqual({
      "tend-nosuch": ["ERROR (no such group)"],
      "tend-crash": ["stopped", "removed process group"],
      "tend-web": ["stopped", "updated process group"],
      "tend-new": ["added process group"],
    });
  });

  it("files nothing when update could not read the configuration at all", () => {
    expect(outcomesByName(fixture("update-unreadable.txt")).size).toBe(0);
  });
});

describe("failureOf", () => {
  it("fails a name with an error line, and one the command said nothing about", () => {
    const start = result(fixture("start-errors.txt"));
    expect(failureOf(start, "tend-web", ["already started"])).toBeUndefined();
    expect(failureOf(start, "tend-missing")?.message).toContain("tend-missing: ERROR (no such file)");
    expect(failureOf(start, "tend-other")?.message).toContain("it printed nothing for tend-other");
  });

  it("lets the benign errors pass", () => {
    expect(failureOf(result("tend-web: ERROR (already started)\n"), "tend-web", ["already started"])).toBeUndefined();
    expect(failureOf(result("tend-web: ERROR (not running)\n"), "tend-web", ["already started"])?.code).toBe("TEND_COMMAND_FAILED");
  });
});
