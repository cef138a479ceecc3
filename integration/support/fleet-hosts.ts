import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestHost } from "@tend/testkit/harness";

/** The built CLI of this checkout, run on this machine (the fleet's controller). */
export const CLI = join(import.meta.dirname, "../../packages/cli/dist/bin.js");

/**
 * Containers as fleet hosts: a key pair for the logins, each container's host key pinned in a
 * known_hosts file, and an inventory whose hosts reach sshd with `docker exec -i ID sshd -i`
 * (the containers keep --network none).
 */
export class FleetLab {
  readonly dir = mkdtempSync(join(tmpdir(), "tend-fleet-it-"));
  readonly key = join(this.dir, "id_ed25519");
  readonly knownHosts = join(this.dir, "known_hosts");

  constructor() {
    chmodSync(this.dir, 0o700);
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", this.key]);
    writeFileSync(this.knownHosts, "");
  }

  /** Lets root (and alice, with sudo -n) log in with the lab's key; pins the host key under `alias`. */
  async admit(host: TestHost, alias: string): Promise<void> {
    const pub = readFileSync(`${this.key}.pub`, "utf8");
    await host.mustSh("mkdir -p /run/sshd && chmod 0755 /run/sshd");
    for (const [user, home] of [["root", "/root"], ["alice", "/home/alice"]] as const) {
      await host.writeFile(`${home}/.ssh/authorized_keys`, pub, { mode: 0o600 });
      await host.mustSh(`chown -R ${user}: ${home}/.ssh && chmod 0700 ${home}/.ssh`);
    }
    await host.writeFile("/etc/sudoers.d/alice", "alice ALL=(ALL) NOPASSWD: ALL\n", { mode: 0o440 });
    const hostKey = (await host.mustExec(["cat", "/etc/ssh/ssh_host_ed25519_key.pub"])).split(" ").slice(0, 2).join(" ");
    writeFileSync(this.knownHosts, `${readFileSync(this.knownHosts, "utf8")}${alias} ${hostKey}\n`);
  }

  /** One inventory host entry (YAML) for a container. */
  entry(alias: string, containerId: string, extra: string[] = []): string {
    return [
      `  ${alias}:`,
      ...extra.map((l) => `    ${l}`),
      `    ssh:`,
      `      ProxyCommand: "docker exec -i ${containerId} /usr/sbin/sshd -i"`,
      `      HostKeyAlias: ${alias}`,
    ].join("\n");
  }

  /** Writes an inventory; `defaults` carry the key and the pinned known_hosts (checked strictly). */
  inventory(name: string, hosts: string[], groups = ""): string {
    const file = join(this.dir, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      [
        "defaults:",
        "  user: root",
        `  identity: ${this.key}`,
        "  ssh:",
        "    IdentitiesOnly: yes",
        `    UserKnownHostsFile: ${this.knownHosts}`,
        "    GlobalKnownHostsFile: /dev/null",
        "    StrictHostKeyChecking: yes",
        "    LogLevel: ERROR",
        "hosts:",
        ...hosts,
        groups,
      ].join("\n"),
    );
    return file;
  }

  write(name: string, text: string): string {
    const file = join(this.dir, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  }

  /** Runs the CLI here; resolves with its exit code and output. `onOut` sees stdout as it comes. */
  tend(args: string[], onOut?: (text: string, pid: number) => void, cwd = this.dir): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => {
        stdout += c.toString();
        onOut?.(stdout, child.pid!);
      });
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      child.on("close", (code) => resolve({ exitCode: code ?? 1, stdout, stderr }));
    });
  }
}

/** The pids of the processes on this machine that reach `containerId`'s sshd (ssh's ProxyCommand). */
export function proxyPids(containerId: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv.includes(containerId) && argv.includes("/usr/sbin/sshd") && argv.includes("exec")) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}
