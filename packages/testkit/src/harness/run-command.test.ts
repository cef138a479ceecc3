import { describe, expect, it } from "vitest";
import { runCommand } from "./run-command.js";

describe("runCommand", () => {
  it("gives the exit of a program that exits without reading its input, and nothing is thrown for the closed pipe", async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => void uncaught.push(error);
    process.on("uncaughtException", record);
    try {
      // More than a pipe holds, to a program that never reads it: the write meets EPIPE.
      const input = Buffer.alloc(4 << 20, "x");
      for (let i = 0; i < 5; i++) {
        await expect(runCommand(["sh", "-c", "exit 3"], { input, okCodes: "any" })).resolves.toMatchObject({ exitCode: 3 });
        await expect(runCommand(["true"], { input })).resolves.toMatchObject({ exitCode: 0 });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off("uncaughtException", record);
    }
    expect(uncaught).toEqual([]);
  });
});
