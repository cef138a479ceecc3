import { createConnection } from "node:net";

/** OpenSSH's multiplexing protocol (its PROTOCOL.mux): each message a uint32 length, then a uint32 type and its fields. */
const MUX_MSG_HELLO = 0x00000001;
const MUX_C_TERMINATE = 0x10000005;
const MUX_S_OK = 0x80000001;
const MUX_VERSION = 4;

function message(...words: number[]): Buffer {
  const out = Buffer.alloc(4 + 4 * words.length);
  out.writeUInt32BE(4 * words.length, 0);
  words.forEach((word, i) => out.writeUInt32BE(word, 4 + 4 * i));
  return out;
}

/**
 * Asks the master listening on `controlPath` to end its connection, as `ssh -O exit` does, over
 * the control socket itself: no ssh client to start. `ended`: the master took the request (it
 * answered, or closed the socket as it exited); `none`: no master listens there; `failed`: it
 * answered otherwise, or not in time (the caller can still run `ssh -O exit`).
 */
export function terminateMaster(controlPath: string, timeoutMs: number): Promise<"ended" | "none" | "failed"> {
  return new Promise((resolve) => {
    const socket = createConnection({ path: controlPath });
    let received = Buffer.alloc(0);
    let asked = false;
    let settled = false;
    const done = (outcome: "ended" | "none" | "failed") => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done("failed"), timeoutMs);
    socket.on("connect", () => socket.write(message(MUX_MSG_HELLO, MUX_VERSION)));
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      while (received.length >= 8 && received.length >= 4 + received.readUInt32BE(0)) {
        const length = received.readUInt32BE(0);
        const type = received.readUInt32BE(4);
        const first = length >= 8 ? received.readUInt32BE(8) : undefined;
        received = received.subarray(4 + length);
        if (asked) return done(type === MUX_S_OK ? "ended" : "failed");
        // The master's hello first (its protocol version), then our request.
        if (type !== MUX_MSG_HELLO || first !== MUX_VERSION) return done("failed");
        asked = true;
        socket.write(message(MUX_C_TERMINATE, 1));
      }
    });
    socket.on("error", (error: NodeJS.ErrnoException) => done(!asked && (error.code === "ENOENT" || error.code === "ECONNREFUSED") ? "none" : asked ? "ended" : "failed"));
    // A master exits as soon as it takes the request, at times before its answer goes out.
    socket.on("close", () => done(asked ? "ended" : "failed"));
  });
}
