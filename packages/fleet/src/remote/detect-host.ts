import { TendError } from "@tend/core";
import { q, SSH_FAILED, type ShellChannel } from "../ssh/ssh-connection.js";
import { parseUserDatabases, type HostUsers } from "./remote-files.js";

/** What one round trip learns about a target. */
export interface DetectedHost {
  uid: number;
  login: string;
  hostname: string;
  platform: string;
  arch: string;
  kernel: string;
  pid1: string;
  distro?: string;
  distroVersion?: string;
  /** The marker paths (of the inits' detect rules) that exist there. */
  present: Set<string>;
  users: HostUsers;
  home: string;
}

/**
 * The detection script: PID 1's name, the kernel, os-release, the marker paths, the user
 * databases. What Linux tells in /proc the shell reads itself (`read`, no process); `uname` and
 * `id` only where /proc has no answer; one `cat` for both databases.
 */
export function detectScript(paths: readonly string[]): string {
  return [
    // rd FILE: its first line into _v, by the shell itself; false when unreadable or empty.
    `rd() { _v=; [ -r "$1" ] || return 1; IFS= read -r _v < "$1" || [ -n "$_v" ]; }`,
    `_u=; if [ -r /proc/self/status ]; then while read -r _k _r _e _x; do if [ "$_k" = Uid: ]; then _u=$_e; break; fi; done < /proc/self/status; fi`,
    `printf 'uid=%s\\n' "\${_u:-$(id -u)}"`,
    `printf 'login=%s\\n' "\${LOGNAME:-\${USER:-}}"`,
    `if rd /proc/sys/kernel/hostname; then printf 'hostname=%s\\n' "$_v"; else printf 'hostname=%s\\n' "$(hostname 2>/dev/null || uname -n)"; fi`,
    `if rd /proc/sys/kernel/ostype; then printf 'sys=%s\\n' "$_v"; else printf 'sys=%s\\n' "$(uname -s)"; fi`,
    `if rd /proc/sys/kernel/arch; then printf 'arch=%s\\n' "$_v"; else printf 'arch=%s\\n' "$(uname -m)"; fi`,
    `if rd /proc/sys/kernel/osrelease; then printf 'kernel=%s\\n' "$_v"; else printf 'kernel=%s\\n' "$(uname -r)"; fi`,
    `rd /proc/1/comm; printf 'pid1=%s\\n' "$_v"`,
    `if [ -r /etc/os-release ]; then (. /etc/os-release; echo "distro=\${ID-}"; echo "distroVersion=\${VERSION_ID-}"); fi`,
    ...paths.map((p) => `if [ -e ${q(p)} ] || [ -L ${q(p)} ]; then printf 'present=%s\\n' ${q(p)}; fi`),
    `echo "--passwd"`,
    `cat /etc/passwd - /etc/group <<'__tend_group__'`,
    `--group`,
    `__tend_group__`,
    `echo "--end"`,
  ].join("\n");
}

const ARCH: Record<string, string> = { x86_64: "x64", aarch64: "arm64", armv7l: "arm", i686: "ia32", i386: "ia32", ppc64le: "ppc64", s390x: "s390x", riscv64: "riscv64" };

export function parseDetection(out: string): DetectedHost {
  const [head = "", rest = ""] = out.split("\n--passwd\n");
  const [passwd = "", tail = ""] = rest.split("\n--group\n");
  const group = tail.split("\n--end")[0] ?? "";
  const values = new Map<string, string>();
  const present = new Set<string>();
  for (const line of head.split("\n")) {
    const at = line.indexOf("=");
    if (at < 0) continue;
    const key = line.slice(0, at);
    if (key === "present") present.add(line.slice(at + 1));
    else values.set(key, line.slice(at + 1));
  }
  const users = parseUserDatabases(passwd, group);
  const uid = Number(values.get("uid") ?? "NaN");
  const entries = passwd.split("\n").map((l) => l.split(":"));
  const home = entries.find((f) => f[2] === "0")?.[5] ?? "/root";
  // The login's name as `id -un` gives it: its uid's entry, else what sshd set (a user of a directory service).
  const login = entries.find((f) => f[0] && f[2] === String(uid))?.[0] ?? values.get("login") ?? "";
  return {
    uid,
    login,
    hostname: values.get("hostname") ?? "",
    platform: (values.get("sys") ?? "").toLowerCase(),
    arch: ARCH[values.get("arch") ?? ""] ?? values.get("arch") ?? "",
    kernel: values.get("kernel") ?? "",
    pid1: values.get("pid1") ?? "",
    ...(values.get("distro") ? { distro: values.get("distro")! } : {}),
    ...(values.get("distroVersion") ? { distroVersion: values.get("distroVersion")! } : {}),
    present,
    users,
    home,
  };
}

/** Detects the target in one round trip (as the login: nothing here needs root). */
export async function detectHost(channel: ShellChannel, name: string, paths: readonly string[]): Promise<DetectedHost> {
  const result = await channel.script(detectScript(paths), 60_000);
  if (result.exitCode === SSH_FAILED || !result.stdout.includes("\n--end")) {
    throw new TendError("TEND_FLEET_CONNECTION", `${name}: detection failed (exit ${result.exitCode}): ${result.stderr.trim().split("\n").slice(-3).join(" ")}`, { resource: name });
  }
  return parseDetection(result.stdout);
}
