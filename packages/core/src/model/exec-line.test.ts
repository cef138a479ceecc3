import { execFileSync, spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execProblem, parseExec, shellStaysInFront, signalReachesProgram } from "./exec-line.js";
import { MAX_ARGUMENT_BYTES } from "./argument-limit.js";
import { shellQuote } from "./shell-quote.js";
import { execLastCommand, shellWords } from "./shell-words.js";

/** How /bin/sh itself splits a simple command into words (the oracle). */
function shSplit(line: string): string[] | "error" {
  const result = spawnSync("/bin/sh", ["-c", `set -f; eval "set -- $LINE" && for a in "$@"; do printf '%s\\0' "$a"; done`], { encoding: "utf8", env: { LINE: line } });
  if (result.status !== 0) return "error";
  return result.stdout === "" ? [] : result.stdout.slice(0, -1).split("\0");
}

describe("parseExec", () => {
  it("looks a bare command up through /usr/bin/env and keeps full paths", () => {
    expect(parseExec("syncthing serve --no-browser").argv).toEqual(["/usr/bin/env", "syncthing", "serve", "--no-browser"]);
    expect(parseExec("/opt/web/bin/server --port 8080").argv).toEqual(["/opt/web/bin/server", "--port", "8080"]);
  });

  it("splits a simple command with quotes into its arguments, with no shell in between", () => {
    expect(parseExec(`nginx -g "daemon off;"`)).toEqual({ kind: "argv", argv: ["/usr/bin/env", "nginx", "-g", "daemon off;"] });
    const loop = `/bin/sh -c 'echo $$ >> /run/x.pids; trap "echo hup" HUP; while :; do sleep 1; done'`;
    expect(parseExec(loop)).toEqual({ kind: "argv", argv: ["/bin/sh", "-c", `echo $$ >> /run/x.pids; trap "echo hup" HUP; while :; do sleep 1; done`] });
    expect(parseExec(`/opt/x --name=it\\'s "a \\"b\\"" ''`).argv).toEqual(["/opt/x", "--name=it's", 'a "b"', ""]);
  });

  it.each(["restic backup ~/Documents", "a | b", "a > f", "echo $HOME", "ls *.txt", "FOO=1 cmd", `echo "$HOME"`, "a; b", "if true; then x; fi", "cmd # note", "(a)"])(
    "runs shell syntax through one /bin/sh -c: %s",
    (line) => {
      expect(parseExec(line)).toMatchObject({ kind: "shell", script: line });
      expect(parseExec(line).argv.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
    },
  );

  it("splits words exactly as /bin/sh does", () => {
    const piece = fc.constantFrom("a", "b", " ", "\t", "'", '"', "\\", "x y", "-c", "=", "%", "{}", ";", "$", "*", "é", "\\\\", "#", "~");
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), (pieces) => {
        const line = `/bin/echo ${pieces.join("")}`;
        const read = shellWords(line);
        if (read.kind === "syntax") return;
        const oracle = shSplit(line);
        if (read.kind === "error") expect(oracle).toBe("error");
        else expect(read.words).toEqual(oracle);
      }),
      { numRuns: 400 },
    );
  });
});

describe("exec before the last command", () => {
  it.each([
    ["cd /srv/app && ./run --port 80", "cd /srv/app && exec ./run --port 80"],
    ["echo $$ > /run/x.pid; /opt/x", "echo $$ > /run/x.pid; exec /opt/x"],
    ["/opt/x >> /var/log/x.log 2>&1", "exec /opt/x >> /var/log/x.log 2>&1"],
    ["test -f /etc/x || /opt/x --init;", "test -f /etc/x || exec /opt/x --init;"],
  ])("%s", (script, expected) => {
    expect(execLastCommand(script)).toBe(expected);
  });

  it.each(["echo run >> /tmp/once.count; exit 3", "cd /tmp; echo hi", "a | b", "a &", "trap 'x' HUP; while :; do sleep 1; done", "while :; do sleep 1; done", "FOO=1 cmd", "exec /opt/x", "(a; b)", "{ a; b; }", "a; f() { b; }"])(
    "leaves alone what exec would change: %s",
    (script) => {
      expect(execLastCommand(script)).toBe(script);
    },
  );

  it("keeps the script's meaning, and makes the last command the shell's own process", () => {
    const script = execLastCommand("echo $$; sh -c 'echo $$'");
    expect(script).toBe("echo $$; exec sh -c 'echo $$'");
    const [shell, last] = execFileSync("/bin/sh", ["-c", script], { encoding: "utf8" }).trim().split("\n");
    expect(last).toBe(shell);
    const [shellAgain, child] = execFileSync("/bin/sh", ["-c", "echo $$; sh -c 'echo $$'"], { encoding: "utf8" }).trim().split("\n");
    expect(child).not.toBe(shellAgain);
  });
});

describe("shellStaysInFront", () => {
  it.each(["/opt/x --flag", "/bin/sh -c 'trap x HUP; while :; do sleep 1; done'", "cd /srv && /opt/x", "cd /srv && exec /opt/x", "cd /srv; exec 2>&1 /opt/x", "exec >/var/log/x /opt/x"])(
    "is false when the program replaces the shell: %s",
    (exec) => {
      expect(shellStaysInFront(exec)).toBe(false);
    },
  );

  it.each(["/opt/x | /opt/y", "/opt/x &", "cd /srv && exec /opt/x | logger", "cd /srv; exec >/var/log/x", "exec 2> /var/log/x", "/opt/x; echo done", "trap 'x' HUP; /opt/x"])(
    "is true when /bin/sh stays between the init and the program: %s",
    (exec) => {
      expect(shellStaysInFront(exec)).toBe(true);
    },
  );

  it("agrees with the process table: the pid sh starts as is the program's exactly when it says so", () => {
    for (const exec of ["cd / && exec sh -c 'echo $$'", "cd / && sh -c 'echo $$'", "sh -c 'echo $$' | cat"]) {
      const script = parseExec(`echo $$; ${exec}`).argv[2];
      const [shell, program] = execFileSync("/bin/sh", ["-c", script], { encoding: "utf8" }).trim().split("\n");
      expect(program !== shell).toBe(shellStaysInFront(`echo $$; ${exec}`));
    }
  });
});

describe("execProblem", () => {
  it("refuses a relative program and an unclosed quote on every init", () => {
    expect(execProblem("./bin/prog --x")).toContain("`./bin/prog` is a relative path");
    expect(execProblem("bin/prog")).toContain("relative path");
    expect(execProblem("cd /x && ./run")).toBeUndefined();
    expect(execProblem(`/opt/x "unclosed`)).toBe('it has a `"` that is never closed');
    expect(execProblem("/opt/x --ok")).toBeUndefined();
  });

  it("refuses an argument longer than the kernel passes to a program, as the kernel does", () => {
    const fits = "x".repeat(MAX_ARGUMENT_BYTES);
    const over = `${fits}x`;
    // The kernel's own answer for the limit: execve of a program with each argument.
    expect(spawnSync("/bin/true", [fits]).error).toBeUndefined();
    expect(spawnSync("/bin/true", [over]).error).toMatchObject({ code: "E2BIG" });
    expect(execProblem(`/opt/x ${fits}`)).toBeUndefined();
    expect(execProblem(`/opt/x ${over}`)).toBe("an argument is 131,072 bytes, and Linux starts no program with one over 131,071 (MAX_ARG_STRLEN)");
    expect(execProblem(`prog '${"é".repeat(65_536)}'`)).toContain("an argument is 131,072 bytes");
    // A shell line is one argument of /bin/sh, however short its words.
    const script = `/opt/x ${"ab ".repeat(44_000)}| cat`;
    expect(parseExec(script).kind).toBe("shell");
    expect(execProblem(script)).toContain("its script, which `/bin/sh -c` gets as one argument, is 132,");
    expect(execProblem(`/opt/x ${"ab ".repeat(44_000)}`)).toBeUndefined();
  });

  it.each(["@", "+", "!", "!!", ":", "-"])("never lets systemd's %s prefix reach ExecStart: a path after it is relative, a bare name (but an option) runs through env", (prefix) => {
    expect(execProblem(`${prefix}/bin/x`)).toContain(`\`${prefix}/bin/x\` is a relative path`);
    if (prefix !== "-") expect(parseExec(`${prefix}echo hi`).argv).toEqual(["/usr/bin/env", `${prefix}echo`, "hi"]);
  });
});

describe("shellQuote", () => {
  it.each(["plain", "", "a b", "$(id)", "`id`", "it's", "back\\slash", "%F", "tab\there", "ünï"])("round-trips %j through sh", (value) => {
    expect(execFileSync("/bin/sh", ["-c", `printf %s ${shellQuote(value)}`], { encoding: "utf8" })).toBe(value);
  });
});

describe("signalReachesProgram", () => {
  it("is true where the supervised process is the program, or a script that traps the signal", () => {
    expect(signalReachesProgram("/opt/x --y", "HUP")).toBe(true);
    expect(signalReachesProgram("cd /srv && ./run", "HUP")).toBe(true);
    expect(signalReachesProgram("cd /srv && exec ./run | tee log", "HUP")).toBe(false);
    expect(signalReachesProgram("/opt/a | /opt/b", "HUP")).toBe(false);
    expect(signalReachesProgram("trap 'reload' HUP; while :; do sleep 1; done", "HUP")).toBe(true);
    expect(signalReachesProgram("trap 'reload' USR1; while :; do sleep 1; done", "HUP")).toBe(false);
  });
});
