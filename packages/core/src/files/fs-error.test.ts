import { describe, expect, it } from "vitest";
import { fsError } from "./fs-error.js";

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

describe("fsError", () => {
  it("names what tend was doing when it refuses a path: a read is not called a write", () => {
    expect(fsError(errno("ELOOP"), "read", "/var/lib/tend/state.json").message).toBe(
      "refusing to read /var/lib/tend/state.json: it is a symlink tend did not make, and tend never goes through one",
    );
    expect(fsError(errno("ENOTDIR"), "look at", "/etc/sv/a/run").message).toBe(
      "refusing to look at /etc/sv/a/run: a part of it is a file where a folder should be",
    );
    expect(fsError(errno("ELOOP"), "write", "/etc/sv/a/run").message).toMatch(/^refusing to write \/etc\/sv\/a\/run: /);
    expect(fsError(errno("ELOOP"), "read", "/x").code).toBe("TEND_UNSAFE_PATH");
  });

  it("gives root, who needs no sudo, the reasons a file can still refuse it", () => {
    const error = fsError(errno("EPERM"), "write", "/etc/sv/a/run");
    expect([error.code, error.message]).toEqual(["TEND_PERMISSION", "cannot write /etc/sv/a/run: permission denied"]);
    if (process.getuid?.() === 0) expect(error.hint).toMatch(/^tend runs as root here, so the file or its folder is protected otherwise: immutable or append-only \(lsattr/);
    else expect(error.hint).toBe("The system scope needs root (sudo tend …); your own services need --user");
  });
});
