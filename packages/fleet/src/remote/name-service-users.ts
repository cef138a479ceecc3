import type { Resource } from "@tend/core";
import { q, SSH_FAILED, type ShellChannel } from "../ssh/ssh-connection.js";
import { findGroup, findUser, parseUserDatabases, type HostUsers } from "./remote-files.js";

/**
 * The Files' owners and groups that the target's /etc/passwd and /etc/group (read at detection)
 * lack, asked of its name service (LDAP, SSSD) with `getent` in one round trip, and added to
 * `users`: as `chown` there would find them. A name the service does not know stays unknown, and
 * plan says so at the field. Nothing is asked when every name is in the files.
 */
export async function addNameServiceUsers(channel: ShellChannel, resources: readonly Resource[], users: HostUsers): Promise<void> {
  const owners = new Set<string>();
  const groups = new Set<string>();
  for (const resource of resources) {
    if (resource.type !== "file") continue;
    if (resource.owner !== undefined && !findUser(users, resource.owner)) owners.add(resource.owner);
    if (resource.group !== undefined && findGroup(users, resource.group) === undefined) groups.add(resource.group);
  }
  if (owners.size === 0 && groups.size === 0) return;
  const ask = (database: string, keys: Set<string>) => (keys.size === 0 ? "" : `getent ${database} ${[...keys].map(q).join(" ")} 2>/dev/null || true`);
  const script = [ask("passwd", owners), `echo "--group"`, ask("group", groups), `echo "--end"`].filter(Boolean).join("\n");
  const result = await channel.script(script, 60_000);
  if (result.exitCode === SSH_FAILED || !result.stdout.includes("--end")) return;
  const [passwd = "", rest = ""] = `\n${result.stdout}`.split("\n--group\n");
  const found = parseUserDatabases(passwd, rest.split("--end")[0] ?? "");
  for (const [name, entry] of found.users) if (!users.users.has(name)) users.users.set(name, entry);
  for (const [name, gid] of found.groups) if (!users.groups.has(name)) users.groups.set(name, gid);
}
