import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { lostOutputMessage, processStream } from "./process-stream.js";

const errno = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}, write`), { code });

/** A stream that takes `room` writes, then fails the way `how` says: a throw (a file) or an event (a pipe). */
function stream(room: number, how: "throw" | "event", error: NodeJS.ErrnoException) {
  const emitter = new EventEmitter();
  const written: string[] = [];
  return Object.assign(emitter, {
    written,
    write(text: string) {
      if (written.length < room) return written.push(text) > 0;
      if (how === "throw") throw error;
      queueMicrotask(() => emitter.emit("error", error));
      return false;
    },
  });
}

describe("processStream", () => {
  it("keeps a full disk's error, and drops everything after it", () => {
    const full = stream(1, "throw", errno("ENOSPC", "no space left on device"));
    const out = processStream(full);
    for (const line of ["one\n", "two\n", "three\n"]) expect(() => out.write(line)).not.toThrow();
    expect(full.written).toEqual(["one\n"]);
    expect(out.lost?.code).toBe("ENOSPC");
  });

  it("drops output quietly once the reader went away (EPIPE), keeping no error", async () => {
    const pipe = stream(1, "event", errno("EPIPE", "broken pipe"));
    const out = processStream(pipe);
    out.write("one\n");
    out.write("two\n");
    await Promise.resolve();
    out.write("three\n");
    expect(pipe.written).toEqual(["one\n"]);
    expect(out.lost).toBeUndefined();
  });

  it("keeps an error a pipe reports later, as an event, instead of throwing it out of the event", async () => {
    const pipe = stream(0, "event", errno("EIO", "i/o error"));
    const out = processStream(pipe);
    out.write("one\n");
    await Promise.resolve();
    expect(out.lost?.code).toBe("EIO");
  });

  it("says which stream lost its output and why, with a hint for a full disk", () => {
    expect(lostOutputMessage("standard output", errno("ENOSPC", "no space left on device"))).toBe(
      "error TEND_DISK_FULL: could not write to standard output (ENOSPC: no space left on device); tend finished the command, but what it printed from there on is lost\n" +
        "  hint Free space where the output goes, or send it elsewhere, and run the command again\n",
    );
    expect(lostOutputMessage("standard output", errno("EFBIG", "file too large"))).toMatch(/^error TEND_IO: could not write to standard output \(EFBIG: file too large\);/);
  });
});
