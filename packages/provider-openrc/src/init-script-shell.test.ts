import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseExec, type Service } from "@tend/core";
import { describe, expect, it } from "vitest";
import { renderInitScript } from "./render-init-script.js";

/**
 * The rendered scripts checked by real shells: they parse, sourcing them runs nothing, env values
 * come back byte for byte, the program gets exactly the argv the exec line means (parseExec's)
 * after openrc-run's `eval … $command -- $command_args` (supervise-daemon.sh and
 * start-stop-daemon.sh both expand those unquoted inside an eval), and a stop ends the whole
 * process group.
 */
const SHELLS = ["/bin/dash", "/bin/bash"].filter((shell) => existsSync(shell));
const work = mkdtempSync(join(tmpdir(), "tend-openrc-sh-"));
// Files a premature glob would find.
for (const name of ["a1", "a2", "srv"]) writeFileSync(join(work, name), "");
const canary = join(work, "pwned");

type WithExec = Service & { exec: string };
const service = (fields: Omit<WithExec, "type">): WithExec => ({ type: "service", ...fields });

function runSourced(shell: string, script: string, after: string): Buffer {
  const path = join(work, "tend-web");
  writeFileSync(path, script);
  return execFileSync(shell, ["-c", `RC_SVCNAME=tend-web; . ./tend-web\n${after}`], { cwd: work });
}

const nasty = [
  "$(touch " + canary + ")",
  "`touch " + canary + "`",
  "it's \"quoted\" and 'single'",
  "back\\slash \\n \\\\ end\\",
  "${HOME} $HOME $0 $$ $1",
  "* ? [a-z] ~ ~root",
  "a  two  spaces\tand a tab",
  "; touch " + canary + " && echo | cat > /dev/null",
  "\u00e9\u00e8 \u4e2d\u6587 emoji \u{1f600}",
  "",
  "'",
  "'\\''",
];

const execs = [
  "/opt/web/bin/server --port 8080",
  "syncthing serve --no-browser",
  "/opt/x --flag=a,b:c@d%e+f",
  "echo a   b * > /dev/null; printf '%s' \"$HOME\"",
  "sh -c 'echo \"$1\"' x `id` $(id)",
  "cd /srv && exec ./server 2>&1 | logger -t 'it''s'",
  "/opt/caf\u00e9/bin/x --mode=a^b",
  "FOO=bar /opt/x",
  '/opt/demo/bin/demo web "" "daemon off;"',
  'nginx -g "daemon off;"',
  `/bin/sh -c 'echo "start $$" >> /var/tmp/demo-x; trap "echo hup $$ >> /var/tmp/demo-x" HUP; while :; do sleep 1; done'`,
  "cd /var/tmp && /opt/demo/bin/demo web",
  "/opt/x '*' \"a  two  spaces\" 'tab\there' '~' '[a-z]' a\\ b",
  "'/opt/with space/bin/x' --name=\"it's\"",
  "/opt/x '$(touch " + canary + ")' '`touch " + canary + "`' '${HOME}'",
  "/opt/x 'line\nbreak' \"\\\"\" \\'",
];

describe.each(SHELLS)("rendered scripts under %s", (shell) => {
  it("parse with sh -n", () => {
    const variants: WithExec[] = [
      service({ name: "web", exec: "/opt/web/bin/server --port 8080" }),
      service({ name: "web", exec: "/opt/web/bin/server", restart: "always", reloadSignal: "HUP", after: ["network", "db"] }),
      service({ name: "web", exec: "/opt/web/bin/server", restart: "no", reloadSignal: "USR2", description: "it's `x`" }),
      ...execs.map((exec) => service({ name: "web", exec, restart: "on_failure", env: { A: nasty.join(" ") } })),
    ];
    for (const variant of variants) {
      const path = join(work, "syntax");
      writeFileSync(path, renderInitScript(variant));
      expect(() => execFileSync(shell, ["-n", path])).not.toThrow();
    }
  });

  it("gives back every env value byte for byte and runs nothing in them", () => {
    const env = Object.fromEntries(nasty.map((value, index) => [`V${index}`, value]));
    const script = renderInitScript(service({ name: "web", exec: "/opt/web/bin/server", restart: "always", env }));
    const printed = runSourced(shell, script, Object.keys(env).map((key) => `printf '%s\\0' "$${key}"`).join("\n"));
    expect(printed.toString("utf8").split("\0").slice(0, -1)).toEqual(nasty);
    expect(existsSync(canary)).toBe(false);
  });

  it("exports the env to the program", () => {
    const script = renderInitScript(service({ name: "web", exec: "/opt/web/bin/server", env: { RUST_LOG: "a b $(x)" } }));
    expect(runSourced(shell, script, "env | grep ^RUST_LOG=").toString()).toBe("RUST_LOG=a b $(x)\n");
  });

  it.each(execs)("hands the program the argv of `%s`", (exec) => {
    for (const restart of ["no", "always"] as const) {
      const script = renderInitScript(service({ name: "web", exec, restart }));
      // What openrc-run does, reduced to the words that reach the program.
      const printed = runSourced(shell, script, `daemon() { printf '%s\\0' "$@"; }\neval daemon $command -- $command_args`);
      const [program, separator, ...args] = printed.toString("utf8").split("\0").slice(0, -1);
      expect(separator).toBe("--");
      expect([program, ...args]).toEqual(expectedArgv(exec));
    }
    expect(existsSync(canary)).toBe(false);
  });

  it.each(["always", "no"] as const)("ends the whole process group of a stopped restart = %s service, the program and what it started", async (restart) => {
    const pipeline = spawn("/bin/sh", ["-c", "sleep 300 | sleep 301"], { detached: true, stdio: "ignore" });
    const group = pipeline.pid!;
    const members = () => spawnSync("pgrep", ["-g", String(group)], { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
    await waitUntil(() => members().length === 3);
    const pidfile = join(work, "tend-web.pid");
    writeFileSync(pidfile, `${group}\n`);
    const script = renderInitScript(service({ name: "web", exec: "/opt/x | /opt/y", restart }));
    // As openrc-run runs a stop: stop_pre, the supervisor's stop (here: the program's own pid only), stop_post.
    const stopped = runSourced(
      shell,
      script,
      `pidfile=${pidfile}\nservice_get_value() { [ "$1" = child_pid ] && [ "${restart}" = always ] && echo ${group}; true; }\nstop_pre\nkill ${group}\nstop_post\necho "ended $tend_group"`,
    );
    expect(stopped.toString()).toBe(`ended ${group}\n`);
    await waitUntil(() => members().length === 0);
  });
});

async function waitUntil(done: () => boolean): Promise<void> {
  for (let tries = 0; !done(); tries += 1) {
    if (tries > 100) throw new Error("gave up waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the exec line means: the argv parseExec gives, which the program must get byte for byte. */
function expectedArgv(exec: string): string[] {
  return parseExec(exec).argv;
}
