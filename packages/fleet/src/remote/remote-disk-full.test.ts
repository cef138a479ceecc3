import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withLibrary, type ShellLibrary } from "../ssh/shell-library.js";
import { collect, scriptText, type ShellChannel, type ShellResult } from "../ssh/ssh-connection.js";
import { parseUserDatabases, RemoteHostFiles } from "./remote-files.js";

const isRoot = process.getuid?.() === 0;
const USERS = parseUserDatabases("root:x:0:0::/root:/bin/sh\n", "root:x:0:\n");

/**
 * A host whose root is a 64 kB tmpfs: each script runs in a mount namespace of its own (`unshare
 * -m`, nothing of this machine is touched), with a fresh tmpfs mounted on the root first. One
 * script is all a batch of writes takes.
 */
class FullDiskChannel implements ShellChannel {
  /** What the tmpfs held when the last script ended (`find .`, sorted). */
  left = "";
  constructor(private readonly root: string) {}
  async script(script: string, timeoutMs = 30_000, library?: ShellLibrary): Promise<ShellResult> {
    const line = `mount -t tmpfs -o size=64k tmpfs '${this.root}' && { /bin/sh -s; s=$?; echo '--- left' >&2; (cd '${this.root}' && find . | sort) >&2; exit $s; }`;
    const result = await this.command(line, scriptText(withLibrary(script, library)), timeoutMs);
    this.left = result.stderr.split("--- left\n")[1] ?? "";
    return result;
  }
  command(line: string, input: string, timeoutMs = 30_000): Promise<ShellResult> {
    return collect(spawn("unshare", ["-m", "/bin/sh", "-c", line], { stdio: ["pipe", "pipe", "pipe"] }), input, timeoutMs, "full-disk");
  }
  hold(line: string) {
    return spawn("/bin/sh", ["-c", line], { stdio: ["pipe", "pipe", "pipe"] });
  }
  close(): void {}
}

describe("the remote file scripts on a full disk", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  // Debian's sh is dash, whose printf says only "I/O error" when a write fails.
  it.runIf(isRoot)("name the full disk, and drop the whole batch: no file of it lands, no temp file stays", async () => {
    const root = mkdtempSync(join(tmpdir(), "tend-full-"));
    made.push(root);
    const channel = new FullDiskChannel(root);
    const files = new RemoteHostFiles(channel, "test", USERS, root);
    const results = await files.perform([
      { op: "write", path: "/small.conf", content: "small\n", mode: 0o644 },
      { op: "write", path: "/big.conf", content: "x".repeat(200_000), mode: 0o644 },
      { op: "write", path: "/after.conf", content: "after\n", mode: 0o644 },
    ]);
    expect(results.map((result) => result?.code ?? null)).toEqual(["TEND_DISK_FULL", "TEND_DISK_FULL", "TEND_DISK_FULL"]);
    expect(results[1]?.message).toMatch(/^cannot write \/big\.conf on test: .*No space left on device$/);
    expect(results[0]?.message).toBe("cannot write /small.conf on test: not written, since the rest of its batch could not be (out of space)");
    expect(results[2]?.message).toBe("cannot write /after.conf on test: not written, since the rest of its batch could not be (out of space)");
    expect(channel.left).toBe(".\n");
  });

  it.runIf(isRoot)("name the full disk when an append (the state's journal) meets it", async () => {
    const root = mkdtempSync(join(tmpdir(), "tend-full-"));
    made.push(root);
    const files = new RemoteHostFiles(new FullDiskChannel(root), "test", USERS, root);
    const [result] = await files.perform([{ op: "append", path: "/journal", content: "x".repeat(200_000), mode: 0o600 }]);
    expect(result?.code).toBe("TEND_DISK_FULL");
    expect(result?.message).toMatch(/^cannot append to \/journal on test: .*No space left on device$/);
  });
});
