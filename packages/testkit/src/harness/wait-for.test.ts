import { describe, expect, it } from "vitest";
import { waitFor } from "./wait-for.js";

describe("waitFor", () => {
  it("keeps checking past falsy results and errors, and resolves with the first truthy result", async () => {
    const answers = [undefined, "throw", 0, "ready"];
    const value = await waitFor(
      () => {
        const next = answers.shift();
        if (next === "throw") throw new Error("not yet");
        return next;
      },
      { what: "ready", intervalMs: 1 },
    );
    expect(value).toBe("ready");
  });

  it("names what it waited for and the last result on timeout", async () => {
    await expect(waitFor(() => false, { what: "web to run", timeoutMs: 50, intervalMs: 5 })).rejects.toThrow(
      "timed out after 0.05 s waiting for web to run; the last check returned false",
    );
  });

  it("shows the last error on timeout", async () => {
    const failing = () => {
      throw new Error("connection refused");
    };
    await expect(waitFor(failing, { what: "the socket", timeoutMs: 30, intervalMs: 5 })).rejects.toThrow(
      "timed out after 0.03 s waiting for the socket; the last check threw: connection refused",
    );
  });
});
