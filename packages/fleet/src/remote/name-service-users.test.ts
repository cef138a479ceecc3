import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Resource } from "@tend/core";
import { LocalChannel } from "../__fixtures__/local-channel.js";
import { addNameServiceUsers } from "./name-service-users.js";
import { parseUserDatabases } from "./remote-files.js";

const asRoot = process.getuid?.() === 0;

/**
 * A channel whose `getent` is the real one, run in a private mount namespace whose name service
 * also reads libnss-extrausers' files (.ci/run installs it): users only a directory would know.
 * Every script it ran is in `channel.scripts`.
 */
function nameServiceChannel(): LocalChannel {
  const dir = mkdtempSync(join(tmpdir(), "tend-nss-"));
  mkdirSync(join(dir, "bin"));
  mkdirSync(join(dir, "extrausers"));
  writeFileSync(join(dir, "nsswitch.conf"), "passwd: files extrausers\ngroup: files extrausers\n");
  writeFileSync(join(dir, "extrausers/passwd"), "ldapuser:x:70001:70002:LDAP user:/home/ldapuser:/bin/sh\n");
  writeFileSync(join(dir, "extrausers/group"), "ldapgroup:x:70002:\n");
  const inside = `mount --bind ${dir}/nsswitch.conf /etc/nsswitch.conf && mount -t tmpfs tmpfs /var/lib && mkdir /var/lib/extrausers && cp ${dir}/extrausers/* /var/lib/extrausers/ && exec /usr/bin/getent "$@"`;
  writeFileSync(join(dir, "bin/getent"), `#!/bin/sh\nexec unshare -m sh -c '${inside}' getent "$@"\n`, { mode: 0o755 });
  return new LocalChannel({ path: join(dir, "bin") });
}

const file = (name: string, fields: Partial<Extract<Resource, { type: "file" }>>): Resource => ({ type: "file", name, path: `/etc/${name}`, content: "", ...fields });

describe.runIf(asRoot)("owners and groups from the target's name service", () => {
  it("asks getent in one round trip for the names /etc/passwd and /etc/group lacked, and adds what it knows", async () => {
    const users = parseUserDatabases("root:x:0:0::/root:/bin/sh\n", "root:x:0:\n");
    const channel = nameServiceChannel();
    try {
      await addNameServiceUsers(channel, [file("a", { owner: "ldapuser", group: "ldapgroup" }), file("b", { owner: "root", group: "nosuch-group" }), file("c", { owner: "70001" }), file("d", { owner: "nosuch-user" })], users);
      expect(channel.scripts).toHaveLength(1);
      expect(users.users.get("ldapuser")).toEqual({ uid: 70001, gid: 70002 });
      expect(users.groups.get("ldapgroup")).toBe(70002);
      expect(users.users.has("nosuch-user")).toBe(false);
      expect(users.groups.has("nosuch-group")).toBe(false);
      expect([...users.users.keys()].sort()).toEqual(["ldapuser", "root"]);
    } finally {
      channel.close();
    }
  });

  it("asks nothing when every owner and group is in the files, or given as a group id", async () => {
    const users = parseUserDatabases("root:x:0:0::/root:/bin/sh\n", "root:x:0:\n");
    const channel = nameServiceChannel();
    try {
      await addNameServiceUsers(channel, [file("a", { owner: "root", group: "0" }), file("b", { owner: "0", group: "root" }), file("c", {})], users);
      expect(channel.scripts).toEqual([]);
    } finally {
      channel.close();
    }
  });
});
