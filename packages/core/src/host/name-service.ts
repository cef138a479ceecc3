import { childProcesses } from "../runner/child-process.js";

const answers = new Map<string, string[] | undefined>();

/**
 * One entry of the live host's name service, through `getent`: a user or group that
 * /etc/passwd or /etc/group lacks may still come from LDAP, SSSD, systemd-userdb or
 * extrausers, as `id` and `chown` see it. Asked once per key in a run; undefined when the
 * service does not know it, or when `getent` is missing or does not answer within 10 s.
 */
export function nameServiceEntry(database: "passwd" | "group", key: string): string[] | undefined {
  if (key === "" || key.startsWith("-") || /[\s:]/.test(key)) return undefined;
  const asked = `${database}:${key}`;
  if (answers.has(asked)) return answers.get(asked);
  let entry: string[] | undefined;
  try {
    const line = childProcesses().execFileSync("getent", [database, key], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "ignore"] }).split("\n")[0] ?? "";
    const fields = line.split(":");
    entry = fields.length >= (database === "passwd" ? 6 : 3) ? fields : undefined;
  } catch {
    entry = undefined;
  }
  answers.set(asked, entry);
  return entry;
}
