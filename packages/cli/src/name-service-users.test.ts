import { execFile } from "node:child_process";
import { chmod, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const CLI = new URL("../dist/bin.js", import.meta.url).pathname;
const isRoot = process.getuid?.() === 0;

/**
 * Users and groups that only the name service knows (LDAP, SSSD on a real host), played by
 * libnss-extrausers (.ci/run installs it) in a private mount namespace: its own nsswitch.conf,
 * and tmpfs over /var/lib (the users' files and tend's state), /srv and /run. Nothing of this
 * machine's changes.
 */
async function inNameServiceHost(spec: string, commands: string[]) {
  const dir = await mkdtemp(join(tmpdir(), "tend-nss-"));
  await chmod(dir, 0o755);
  await writeFile(join(dir, "tend.yaml"), spec);
  await writeFile(join(dir, "nsswitch.conf"), "passwd: files extrausers\ngroup: files extrausers\n");
  const script = [
    "mount -t tmpfs tmpfs /var/lib && mount -t tmpfs tmpfs /srv && mount -t tmpfs tmpfs /run",
    "mkdir /var/lib/extrausers",
    "echo 'ldapuser:x:70001:70002:LDAP user:/home/ldapuser:/bin/sh' > /var/lib/extrausers/passwd",
    "echo 'ldapgroup:x:70002:' > /var/lib/extrausers/group",
    `mount --bind ${dir}/nsswitch.conf /etc/nsswitch.conf`,
    "getent passwd ldapuser >/dev/null || { echo 'libnss-extrausers is missing (.ci/run installs it)' >&2; exit 99; }",
    ...commands,
  ].join(" && ");
  try {
    const { stdout, stderr } = await run("unshare", ["-m", "sh", "-c", script], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    return { code: 0, stdout, stderr, dir };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, dir };
  }
}

const tend = `${process.execPath} ${CLI}`;
const SPEC = 'tend: v1alpha1\ntype: File\nname: app\npath: /srv/app.conf\ncontent: "x\\n"\nowner: ldapuser\ngroup: ldapgroup\n';

describe.runIf(isRoot)("users and groups from the name service, not /etc/passwd", () => {
  it("a File given to them on the live host is planned, written as theirs, and then converged", async () => {
    const result = await inNameServiceHost(SPEC, [
      `${tend} plan --init runit`,
      `${tend} apply --init runit >/dev/null`,
      "echo \"owned: $(stat -c '%u:%g' /srv/app.conf)\"",
      `${tend} plan --init runit --detailed-exitcode >/dev/null`,
      'echo "converged: $?"',
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  + file:app  /srv/app.conf\n");
    expect(result.stdout).toContain("owned: 70001:70002\n");
    expect(result.stdout).toContain("converged: 0\n");
  });

  it("--user NAME takes her home from the name service", async () => {
    const result = await inNameServiceHost("tend: v1alpha1\ntype: Service\nname: web\nexec: /bin/sleep 1000\nuser: true\n", [`${tend} plan --init runit --user ldapuser --diff`]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^host \S+ \(runit, user ldapuser\)$/m);
    expect(result.stdout).toContain("+++ b/home/ldapuser/.local/service/tend-web/run\n");
  });

  it("an image root's users are its own files: the host's name service is not asked", async () => {
    const spec = 'tend: v1alpha1\ntype: File\nname: app\npath: /srv/app.conf\ncontent: "x\\n"\nowner: ldapuser\n---\ntend: v1alpha1\ntype: File\nname: log\npath: /srv/app.log\ncontent: ""\ngroup: ldapgroup\n';
    const result = await inNameServiceHost(spec, ["mkdir -p /srv/image/etc", "echo 'root:x:0:0::/root:/bin/sh' > /srv/image/etc/passwd", "echo 'root:x:0:' > /srv/image/etc/group", `${tend} plan --init runit --root /srv/image`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error TEND_USAGE: unknown user `ldapuser`\n");
    expect(result.stderr).toMatch(/unknown group `ldapgroup`\n {2}at .*file:log, field group\n/);
  });
});
