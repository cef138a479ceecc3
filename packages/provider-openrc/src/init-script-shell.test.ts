import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Service } from "@tend/core";
import { describe, expect, it } from "vitest";
import { renderInitScript } from "./render-init-script.js";

/**
 * The rendered scripts checked by real shells: they parse, sourcing them runs nothing, env values
 * come back byte for byte, and the program gets exactly the argv the exec line means after
 * openrc-run's `eval … $command -- $command_args` (supervise-daemon.sh and start-stop-daemon.sh
 * both expand those unquoted inside an eval).
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
});

/** What the exec line means: a plain list of words, or the line itself for /bin/sh -c. */
function expectedArgv(exec: string): string[] {
  if (/[|&;<>()$`\\"'*?[\]#~{}!^]|[^\x00-\x7f]/.test(exec) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(exec)) return ["/bin/sh", "-c", exec];
  const words = exec.split(" ");
  return words[0]!.startsWith("/") ? words : ["/usr/bin/env", ...words];
}
