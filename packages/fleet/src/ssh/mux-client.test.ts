import { mkdtempSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { terminateMaster } from "./mux-client.js";

const words = (...values: number[]) => {
  const out = Buffer.alloc(4 + 4 * values.length);
  out.writeUInt32BE(4 * values.length, 0);
  values.forEach((v, i) => out.writeUInt32BE(v, 4 + 4 * i));
  return out;
};

/** A stand-in master on a unix socket: answers the hello with `version`, then does `onRequest`. */
async function master(version: number, onRequest: (socket: Socket) => void) {
  const path = join(mkdtempSync(join(tmpdir(), "tend-mux-")), "ctl");
  const received: Buffer[] = [];
  const server = createServer((socket) => {
    let seen = 0;
    socket.on("data", (chunk) => {
      received.push(chunk);
      seen += chunk.length;
      if (seen === 12) socket.write(words(1, version));
      if (seen === 24) onRequest(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { path, received: () => Buffer.concat(received), close: () => server.close() };
}

describe("the control socket's terminate request", () => {
  it("says hello (version 4), then asks the master to terminate, as ssh -O exit does", async () => {
    const m = await master(4, (socket) => socket.write(words(0x80000001, 1)));
    expect(await terminateMaster(m.path, 5_000)).toBe("ended");
    expect(m.received()).toEqual(Buffer.concat([words(1, 4), words(0x10000005, 1)]));
    m.close();
  });

  it("takes a master that exits before answering as ended; no socket as none; another version as failed", async () => {
    const quits = await master(4, (socket) => socket.destroy());
    expect(await terminateMaster(quits.path, 5_000)).toBe("ended");
    quits.close();
    expect(await terminateMaster(join(tmpdir(), "tend-no-such-socket"), 5_000)).toBe("none");
    const other = await master(5, () => undefined);
    expect(await terminateMaster(other.path, 5_000)).toBe("failed");
    other.close();
    const silent = await master(4, () => undefined);
    expect(await terminateMaster(silent.path, 200)).toBe("failed");
    silent.close();
  });
});
