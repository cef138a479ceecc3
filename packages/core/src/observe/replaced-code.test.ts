import { describe, expect, it } from "vitest";
import { replacedCode } from "./replaced-code.js";

const MAPS = `55d0c0a00000-55d0c0a02000 r--p 00000000 08:01 1311 /usr/sbin/nginx (deleted)
55d0c0a02000-55d0c0a10000 r-xp 00002000 08:01 1311 /usr/sbin/nginx (deleted)
7f1c2a000000-7f1c2a028000 r--p 00000000 08:01 2222 /usr/lib/x86_64-linux-gnu/libc.so.6
7f1c2a028000-7f1c2a1bd000 r-xp 00028000 08:01 2222 /usr/lib/x86_64-linux-gnu/libc.so.6
7f1c2b000000-7f1c2b100000 r-xp 00010000 08:01 3333 /usr/lib/x86_64-linux-gnu/libssl.so.3 (deleted)
7f1c2c000000-7f1c2c001000 rw-s 00000000 00:01 4444 /dev/zero (deleted)
7f1c2d000000-7f1c2d001000 r-xp 00000000 00:01 5555 /memfd:jit (deleted)
7f1c2e000000-7f1c2e001000 rw-p 00000000 08:01 6666 /var/cache/app/old.db (deleted)
7ffd1a000000-7ffd1a021000 rw-p 00000000 00:00 0 [stack]
`;

describe("replacedCode", () => {
  it("names the program and the libraries whose executable mappings are marked deleted, program first", () => {
    expect(replacedCode(MAPS)).toEqual(["/usr/sbin/nginx", "/usr/lib/x86_64-linux-gnu/libssl.so.3"]);
  });

  it("leaves out data files, memory that was never a file, and current code", () => {
    expect(replacedCode(MAPS.split("\n").slice(2, 4).join("\n"))).toEqual([]);
    expect(replacedCode("7f-8f rw-p 0 08:01 6666 /var/cache/app/old.db (deleted)\n7f-8f r-xp 0 00:01 5 /memfd:jit (deleted)\n")).toEqual([]);
  });

  it("keeps a path that holds spaces", () => {
    expect(replacedCode("7f-8f r-xp 0 08:01 77 /opt/my app/bin/app (deleted)\n")).toEqual(["/opt/my app/bin/app"]);
  });
});
