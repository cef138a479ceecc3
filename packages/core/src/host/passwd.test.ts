import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lookupGroup, lookupUser } from "./passwd.js";

describe("the password and group databases of an image root", () => {
  const roots: string[] = [];
  afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

  function imageRoot(): string {
    const root = mkdtempSync(join(tmpdir(), "tend-passwd-"));
    roots.push(root);
    mkdirSync(join(root, "etc"));
    writeFileSync(join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n# a comment\nalice:x:1000:1000::/home/alice:/bin/sh\n");
    writeFileSync(join(root, "etc/group"), "root:x:0:\nstaff:x:50:\n");
    return root;
  }

  it("finds users by name or id, and groups by name or number", () => {
    const root = imageRoot();
    expect(lookupUser("alice", root)).toEqual({ name: "alice", uid: 1000, gid: 1000, home: "/home/alice" });
    expect(lookupUser("1000", root)?.name).toBe("alice");
    expect(lookupUser("bob", root)).toBeUndefined();
    expect(lookupGroup("staff", root)).toBe(50);
    expect(lookupGroup("77", root)).toBe(77);
    expect(lookupGroup("wheel", root)).toBeUndefined();
  });

  it("sees a user added since the last look, however the file was changed", () => {
    const root = imageRoot();
    const passwd = join(root, "etc/passwd");
    expect(lookupUser("bob", root)).toBeUndefined();
    // useradd: a new file renamed over the old one.
    writeFileSync(`${passwd}+`, "root:x:0:0:root:/root:/bin/sh\nbob:x:1001:1001::/home/bob:/bin/sh\n");
    renameSync(`${passwd}+`, passwd);
    expect(lookupUser("bob", root)?.uid).toBe(1001);
    // An edit in place, of the same size, with the modification time put back as it was.
    const before = statSync(passwd);
    writeFileSync(passwd, "root:x:0:0:root:/root:/bin/sh\nbob:x:1002:1001::/home/bob:/bin/sh\n");
    utimesSync(passwd, before.atime, before.mtime);
    expect(lookupUser("bob", root)?.uid).toBe(1002);
    appendFileSync(join(root, "etc/group"), "devs:x:60:\n");
    expect(lookupGroup("devs", root)).toBe(60);
  });
});
