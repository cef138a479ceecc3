// The fleet part of `pnpm bench --fleet`: a no-op plan and a fresh apply over OpenSSH on 1, 5
// and 20 runit container hosts (reached with `ProxyCommand docker exec -i ID /usr/sbin/sshd -i`;
// the containers have no network). Goal: 20 hosts planned within 3x the time of one. When
// `ansible-playbook` is installed (Debian's ansible-core), the hosts get Python (the runit-python
// image: Ansible's modules need it on the target, tend does not) and the same no-op check of the
// files (`copy` tasks, `--check`) runs with Ansible over the same ssh setup; otherwise it says so.
//
// The floor rows time what any tool reaching these hosts over ssh must do at least: per host, the
// master connection (key exchange, through `docker exec`), one session running `true`, and the
// exit, N hosts at once. When the floor itself grows past 3x from 1 host to 20, so must tend.
//
// Every host here is a container on this one machine: a target's own work (sshd, its shell, the
// init's commands, and `docker exec` carrying the connection) shares the cores with tend. So
// each plan also reports the machine's CPU time (all processes, from /proc/stat) beside tend's
// own (node and the ssh clients it waits for): when the machine's CPU divided by its cores
// approaches the wall time, the run was bound by the simulated hosts, not by tend.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
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

const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/** CPU time (ms) the whole machine spent busy so far: every process, containers included. */
function machineBusyMs() {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields; // idle and iowait are not busy
  return (user + nice + system + irq + softirq + steal) * TICK_MS;
}

/** CPU time (ms) of this process's waited-for children: tend and the ssh clients it waited for. */
function childrenCpuMs() {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS; // cutime, cstime
}

function measure(argv, okCodes = [0]) {
  const busy = machineBusyMs();
  const own = childrenCpuMs();
  const started = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!okCodes.includes(result.status)) throw new Error(`${argv.join(" ")} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  return { ms, machineCpuMs: machineBusyMs() - busy, tendCpuMs: childrenCpuMs() - own };
}

const time = (argv, okCodes) => measure(argv, okCodes).ms;

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
  const withAnsible = spawnSync("ansible-playbook", ["--version"]).status === 0;
  const image = withAnsible ? "runit-python" : "runit";
  try {
    for (let i = 0; i < N; i += 5) {
      const batch = await Promise.all(Array.from({ length: Math.min(5, N - i) }, () => startHost(image)));
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
    /** One sh that connects to the first n hosts at once, runs `true` on each and ends each connection (fails if any host did). */
    const floorScript = (n) => {
      const lines = hosts.slice(0, n).map((host, i) => {
        const opts = ["-l", "root", "-i", key, "-o", "IdentitiesOnly=yes", "-o", `UserKnownHostsFile=${join(dir, "known_hosts")}`, "-o", "StrictHostKeyChecking=yes", "-o", "LogLevel=ERROR", "-o", `ProxyCommand=docker exec -i ${host.id} /usr/sbin/sshd -i`, "-o", `HostKeyAlias=h${i}`, "-o", "BatchMode=yes", "-o", `ControlPath=${join(dir, `ctl-${i}`)}`].map((o) => `'${o}'`).join(" ");
        return `( ssh -o ControlMaster=yes -o ControlPersist=yes -f -N -T ${opts} h${i} && ssh -o ControlMaster=no -T ${opts} h${i} true && ssh -q -O exit ${opts} h${i} ) & p${i}=$!`;
      });
      return ["s=0", ...lines, ...lines.map((_, i) => `wait $p${i} || s=1`), "exit $s"].join("\n");
    };
    const specFile = spec(dir);
    // Each service's runsv is told to exit (waiting for runsvdir to notice a removed link, ~5 s,
    // and for the service's finish, raced a fixed sleep), then its folder goes once nothing writes to it.
    const RESET = [
      "rm -f /etc/runit/runsvdir/default/tend-* /etc/service/tend-*; rm -rf /var/lib/tend /etc/bench",
      'for d in /etc/sv/tend-*; do [ -d "$d" ] && sv exit "$d" "$d/log"; done >/dev/null 2>&1',
      "i=0; until rm -rf /etc/sv/tend-* /var/log/tend-* 2>/dev/null; do i=$((i + 1)); [ $i -lt 60 ] || exit 1; sleep 0.5; done",
    ].join("\n");
    const reset = () => Promise.all(hosts.map((h) => h.mustSh(RESET)));
    const rows = [];
    const plans = {};
    const floors = {};
    for (const n of [1, 5, 20]) {
      await reset();
      const file = inventory(n);
      const apply = time([process.execPath, CLI, "apply", "-f", specFile, "--hosts", file, "--parallel", "20"]);
      const runs = short ? 1 : 3;
      const samples = [];
      for (let r = 0; r < runs; r += 1) samples.push(measure([process.execPath, CLI, "plan", "-f", specFile, "--hosts", file, "--parallel", "20", "--detailed-exitcode"]));
      const plan = samples.sort((a, b) => a.ms - b.ms)[Math.floor(samples.length / 2)];
      plans[n] = plan.ms;
      const floorSamples = [];
      for (let r = 0; r < runs; r += 1) floorSamples.push(measure(["sh", "-c", floorScript(n)]));
      const floor = floorSamples.sort((a, b) => a.ms - b.ms)[Math.floor(floorSamples.length / 2)];
      floors[n] = floor.ms;
      const cpu = `CPU: tend ${(plan.tendCpuMs / 1000).toFixed(1)} s, whole machine ${(plan.machineCpuMs / 1000).toFixed(1)} s on ${availableParallelism()} cores`;
      rows.push({ name: `fleet: fresh apply (${FILES} files, ${SERVICES} services) on ${n} host(s)`, ms: apply });
      rows.push({ name: `fleet: no-op plan on ${n} host(s)`, ms: plans[n], ...(n > 1 ? { ratio: plans[n] / plans[1], of: `1 host; ${cpu}`, ...(n === 20 ? { goal: 3 } : {}) } : { of: cpu }) });
      const floorCpu = `CPU: ssh clients ${(floor.tendCpuMs / 1000).toFixed(1)} s, whole machine ${(floor.machineCpuMs / 1000).toFixed(1)} s`;
      rows.push({ name: `fleet: ssh floor (connect, run true, exit) on ${n} host(s)`, ms: floors[n], ...(n > 1 ? { ratio: floors[n] / floors[1], of: `1 host; ${floorCpu}` } : { of: floorCpu }) });
    }
    if (withAnsible) {
      const play = join(dir, "play.yaml");
      const tasks = [];
      for (let i = 0; i < FILES; i += 1) tasks.push(`    - copy: { dest: /etc/bench/f${i}.conf, content: "value ${i}\\n" }`);
      writeFileSync(play, `- hosts: all\n  gather_facts: false\n  tasks:\n${tasks.join("\n")}\n`);
      const ini = join(dir, "ansible.ini");
      writeFileSync(ini, hosts.map((h, i) => `h${i} ansible_python_interpreter=/usr/bin/python3 ansible_user=root ansible_ssh_private_key_file=${key} ansible_ssh_common_args='-o ProxyCommand="docker exec -i ${h.id} /usr/sbin/sshd -i" -o HostKeyAlias=h${i} -o UserKnownHostsFile=${join(dir, "known_hosts")}'`).join("\n"));
      for (const n of [1, 20]) {
        const ms = time(["ansible-playbook", "-i", ini, "--check", "--forks", "20", "--limit", hosts.slice(0, n).map((_, i) => `h${i}`).join(","), play]);
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
