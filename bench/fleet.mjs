// The fleet part of `pnpm bench --fleet`: a no-op plan and a fresh apply over OpenSSH on 1, 5
// and 20 runit container hosts (reached with `ProxyCommand docker exec -i ID /usr/sbin/sshd -i`;
// the containers have no network). Goal: 20 hosts planned within 3x the time of one. When
// `ansible-playbook` is installed, the same no-op check (a file and a service per resource,
// `--check`) runs with Ansible over the same ssh setup for comparison; otherwise it says so.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, median } from "./measure.mjs";

const FILES = 20;
const SERVICES = 5;

function spec(dir) {
  const docs = [];
  for (let i = 0; i < FILES; i += 1) docs.push(`tend: v1alpha1\ntype: File\nname: f${i}\npath: /etc/bench/f${i}.conf\ncontent: "value ${i}\\n"\n`);
  for (let i = 0; i < SERVICES; i += 1) docs.push(`tend: v1alpha1\ntype: Service\nname: s${i}\nexec: /bin/sleep 100000\nrestart: always\n`);
  const file = join(dir, "tend.yaml");
  writeFileSync(file, docs.join("---\n"));
  return file;
}

function time(argv, okCodes = [0]) {
  const started = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!okCodes.includes(result.status)) throw new Error(`${argv.join(" ")} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  return ms;
}

/** Rows for bench/run.mjs. */
export async function fleet({ short = false } = {}) {
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= "true";
  const { startHost } = await import("@tend/testkit/harness");
  const dir = mkdtempSync(join(tmpdir(), "tend-bench-fleet-"));
  chmodSync(dir, 0o700);
  const key = join(dir, "id");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]);
  const pub = readFileSync(`${key}.pub`, "utf8");
  const known = [];
  const hosts = [];
  const N = 20;
  try {
    for (let i = 0; i < N; i += 5) {
      const batch = await Promise.all(Array.from({ length: Math.min(5, N - i) }, () => startHost("runit")));
      hosts.push(...batch);
    }
    await Promise.all(
      hosts.map(async (host, i) => {
        await host.mustSh("mkdir -p /run/sshd /root/.ssh && chmod 0700 /root/.ssh");
        await host.writeFile("/root/.ssh/authorized_keys", pub, { mode: 0o600 });
        known[i] = `h${i} ${(await host.mustExec(["cat", "/etc/ssh/ssh_host_ed25519_key.pub"])).split(" ").slice(0, 2).join(" ")}`;
      }),
    );
    writeFileSync(join(dir, "known_hosts"), `${known.join("\n")}\n`);
    const inventory = (n) => {
      const file = join(dir, `hosts-${n}.yaml`);
      const lines = ["defaults:", "  user: root", `  identity: ${key}`, "  ssh:", "    IdentitiesOnly: yes", `    UserKnownHostsFile: ${join(dir, "known_hosts")}`, "    StrictHostKeyChecking: yes", "    LogLevel: ERROR", "hosts:"];
      hosts.slice(0, n).forEach((host, i) => lines.push(`  h${i}:`, "    ssh:", `      ProxyCommand: "docker exec -i ${host.id} /usr/sbin/sshd -i"`, `      HostKeyAlias: h${i}`));
      writeFileSync(file, `${lines.join("\n")}\n`);
      return file;
    };
    const specFile = spec(dir);
    const reset = () =>
      Promise.all(hosts.map((h) => h.mustSh("rm -f /etc/runit/runsvdir/default/tend-* /etc/service/tend-*; rm -rf /var/lib/tend /etc/bench; sleep 6; rm -rf /etc/sv/tend-* /var/log/tend-*")));
    const rows = [];
    const plans = {};
    for (const n of [1, 5, 20]) {
      await reset();
      const file = inventory(n);
      const apply = time([process.execPath, CLI, "apply", "-f", specFile, "--hosts", file, "--parallel", "20"]);
      const runs = short ? 1 : 3;
      const samples = [];
      for (let r = 0; r < runs; r += 1) samples.push(time([process.execPath, CLI, "plan", "-f", specFile, "--hosts", file, "--parallel", "20", "--detailed-exitcode"]));
      plans[n] = median(samples);
      rows.push({ name: `fleet: fresh apply (${FILES} files, ${SERVICES} services) on ${n} host(s)`, ms: apply });
      rows.push({ name: `fleet: no-op plan on ${n} host(s)`, ms: plans[n], ...(n > 1 ? { ratio: plans[n] / plans[1], of: "1 host", ...(n === 20 ? { goal: 3 } : {}) } : {}) });
    }
    if (spawnSync("ansible-playbook", ["--version"]).status === 0) {
      const play = join(dir, "play.yaml");
      const tasks = [];
      for (let i = 0; i < FILES; i += 1) tasks.push(`    - copy: { dest: /etc/bench/f${i}.conf, content: "value ${i}\\n" }`);
      writeFileSync(play, `- hosts: all\n  gather_facts: false\n  tasks:\n${tasks.join("\n")}\n`);
      const ini = join(dir, "ansible.ini");
      writeFileSync(ini, hosts.map((h, i) => `h${i} ansible_user=root ansible_ssh_private_key_file=${key} ansible_ssh_common_args='-o ProxyCommand="docker exec -i ${h.id} /usr/sbin/sshd -i" -o HostKeyAlias=h${i} -o UserKnownHostsFile=${join(dir, "known_hosts")}'`).join("\n"));
      for (const n of [1, 20]) {
        const ms = time(["ansible-playbook", "-i", ini, "--check", "--limit", hosts.slice(0, n).map((_, i) => `h${i}`).join(","), play]);
        rows.push({ name: `ansible: no-op check (${FILES} files) on ${n} host(s)`, ms, ratio: ms / plans[n], of: `tend on ${n}` });
      }
    } else {
      console.log("fleet: ansible-playbook is not installed: the Ansible comparison did not run");
    }
    return rows;
  } finally {
    await Promise.all(hosts.map((h) => h.stop()));
  }
}
