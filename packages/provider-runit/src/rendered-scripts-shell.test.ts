import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Service } from "@tend/core";
import { renderContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { renderService } from "./render-service.js";
import { GROUP_FILE } from "./process-group.js";
import { renderRunScript } from "./render-run-script.js";
import { renderUserRunsvdirScript, userRunsvdir } from "./user-runsvdir.js";

const system = renderContext({ init: "runit" });
const alice = renderContext({ init: "runit", scope: "user" });
/** The shells a run script may meet: /bin/sh (dash on Debian), and bash and busybox when present. */
const shells = ["/bin/sh", "/bin/dash", "/bin/bash", "/bin/busybox"].filter((shell) => existsSync(shell));

function sh(shell: string, args: string[], cwd?: string): string {
  return execFileSync(shell, shell.endsWith("busybox") ? ["sh", ...args] : args, { encoding: "utf8", ...(cwd ? { cwd } : {}) });
}

const nasty: Record<string, string> = {
  SUBST: "$(touch /tmp/tend-pwned) and $HOME",
  BACKTICKS: "`id` `touch /tmp/tend-pwned`",
  SINGLE: "it's '' ''' quoted",
  DOUBLE: 'say "hi" \\"',
  BACKSLASHES: "C:\\ \\\\server\\share\\ \\n \\",
  GLOBS: "* ? [a-z] ~ ~root {a,b}",
  OPERATORS: "a; b && c || d | e > f < g & h",
  BANG: "!! !$ #not a comment",
  SPACES: "  leading and trailing  ",
  TAB: "a\tb",
  EMPTY: "",
  DASH: "-n -e --",
  UNICODE: "grüße 🎉 ∑",
  PERCENT: "%s %n %%",
};

describe("rendered scripts are valid sh", () => {
  const services: [Service, typeof system][] = [
    [{ type: "service", name: "a", exec: "/opt/a --flag", env: nasty, after: ["b", "network"] }, system],
    [{ type: "service", name: "b", exec: "x | y > \"$HOME/z\"", restart: "on_failure", after: ["a"] }, system],
    [{ type: "service", name: "c", exec: "syncthing serve", user: true, restart: "always", after: ["a"] }, alice],
    [{ type: "service", name: "d", exec: "/bin/true", desired: { state: "running", enabled: false } }, system],
  ];
  const scripts = services.flatMap(([service, ctx]) =>
    renderService(service, ctx).filter((a) => a.content.startsWith("#!/bin/sh")).map((a) => [a.path, a.content] as const),
  );
  scripts.push(["runsvdir", renderUserRunsvdirScript(userRunsvdir("alice", "/home/alice"))]);

  it.each(shells)("%s -n accepts every script", (shell) => {
    expect(scripts.length).toBeGreaterThan(8);
    for (const [path, text] of scripts) {
      expect(() => sh(shell, ["-n", "-c", text]), path).not.toThrow();
    }
  });
});

describe("env values survive the shell byte for byte", () => {
  const script = renderRunScript({ type: "service", name: "env", exec: "/bin/true", env: nasty }, system);
  const exports = script.split("\n").filter((line) => line.startsWith("export ")).join("\n");

  it.each(shells)("%s reads back every value", (shell) => {
    for (const [name, value] of Object.entries(nasty)) {
      expect(sh(shell, ["-c", `${exports}\nprintf %s "$${name}"`]), name).toBe(value);
    }
    expect(existsSync("/tmp/tend-pwned")).toBe(false);
  });
});

describe("exec lines reach the program unchanged", () => {
  /**
   * Runs the script in a service directory with its last `exec` swapped for a printer of its
   * arguments, one per line; resolves with them and the process group ./run noted.
   */
  function argvOf(shell: string, exec: string): string[] {
    const dir = mkdtempSync(join(tmpdir(), "tend-run-"));
    mkdirSync(join(dir, "supervise"));
    const script = renderRunScript({ type: "service", name: "x", exec }, system).replace(/^exec chpst -P /m, () => "echo $$; printf '%s\\n' chpst -P ");
    const [pid, ...argv] = sh(shell, ["-c", script], dir).split("\n").slice(0, -1);
    expect(readFileSync(join(dir, GROUP_FILE), "utf8")).toBe(`${pid}\n`);
    rmSync(dir, { recursive: true });
    return argv;
  }

  it.each(shells)("%s: a plain command, a bare name and shell syntax", (shell) => {
    const chpst = ["chpst", "-P"];
    expect(argvOf(shell, "/opt/web/bin/server --port 8080")).toEqual([...chpst, "/opt/web/bin/server", "--port", "8080"]);
    expect(argvOf(shell, "syncthing serve --no-browser")).toEqual([...chpst, "/usr/bin/env", "syncthing", "serve", "--no-browser"]);
    expect(argvOf(shell, `/opt/demo/bin/demo x "" "daemon off;"`)).toEqual([...chpst, "/opt/demo/bin/demo", "x", "", "daemon off;"]);
    const line = `echo "it's $HOME" | tr a-z A-Z > '/tmp/o u t' 2>&1 && printf '%s' \`id\``;
    expect(argvOf(shell, line)).toEqual([...chpst, "/bin/sh", "-c", line]);
    expect(argvOf(shell, "cd /var/tmp && /opt/demo/bin/demo x")).toEqual([...chpst, "/bin/sh", "-c", "cd /var/tmp && exec /opt/demo/bin/demo x"]);
  });
});
