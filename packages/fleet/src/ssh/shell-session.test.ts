import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SessionPool } from "./session-pool.js";
import { framable } from "./shell-session.js";

/** A pool over this machine's sh, as SshConnection's is over ssh sessions; counts the shells it opened. */
function localPool(max = 4) {
  let opened = 0;
  const pool = new SessionPool(
    () => {
      opened += 1;
      return spawn("/bin/sh", [], { stdio: ["pipe", "pipe", "pipe"] });
    },
    "local",
    max,
  );
  return { pool, opened: () => opened };
}

describe("long-lived shell sessions", () => {
  it("gives each command its own output, error output and exit status, byte for byte, in one shell", async () => {
    const { pool, opened } = localPool();
    expect(await pool.run("printf 'no newline'", "", 5_000)).toEqual({ exitCode: 0, stdout: "no newline", stderr: "" });
    expect(await pool.run("printf 'a\\n\\nb\\n'; printf 'warn' >&2; exit 3", "", 5_000)).toEqual({ exitCode: 3, stdout: "a\n\nb\n", stderr: "warn" });
    expect(await pool.run("printf 'ünïcode ✓\\n'", "", 5_000)).toEqual({ exitCode: 0, stdout: "ünïcode ✓\n", stderr: "" });
    expect(opened()).toBe(1);
    pool.close();
  });

  it("feeds a command exactly its input, and a command without input reads end of file", async () => {
    const { pool } = localPool();
    const script = "echo one\n\necho 'two  spaces'\ncat <<'EOF'\n$HOME is not expanded here\nEOF\n";
    expect((await pool.run("/bin/sh -s", script, 5_000))?.stdout).toBe("one\ntwo  spaces\n$HOME is not expanded here\n");
    expect((await pool.run("cat", "line\n\n", 5_000))?.stdout).toBe("line\n\n");
    expect((await pool.run("cat; echo after", "", 5_000))?.stdout).toBe("after\n");
    pool.close();
  });

  it("keeps commands apart: one command's cd, variables and exit do not reach the next", async () => {
    const { pool, opened } = localPool(1);
    await pool.run("cd /tmp; X=set; export Y=set; exit 7", "", 5_000);
    expect((await pool.run('pwd; echo "[${X-}] [${Y-}]"', "", 5_000))?.stdout).toBe(`${process.cwd()}\n[] []\n`);
    expect(opened()).toBe(1);
    pool.close();
  });

  it("runs commands side by side in at most its number of shells, each answer going to its own command", async () => {
    const { pool, opened } = localPool(2);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => pool.run(`sleep 0.0${i % 3}; echo ${i}; echo e${i} >&2`, "", 5_000)));
    expect(answers.map((a) => `${a?.stdout}|${a?.stderr}`)).toEqual(Array.from({ length: 12 }, (_, i) => `${i}\n|e${i}\n`));
    expect(opened()).toBe(2);
    pool.close();
  });

  it("carries a megabyte of output whole", async () => {
    const { pool } = localPool();
    const result = await pool.run("i=0; while [ $i -lt 16384 ]; do printf '%063d\\n' $i; i=$((i + 1)); done", "", 30_000);
    expect(result?.stdout.length).toBe(16384 * 64);
    expect(result?.stdout.split("\n")[16383]).toBe(`${"0".repeat(58)}16383`);
    pool.close();
  });

  it("a command past its deadline ends its session with TEND_FLEET_CONNECTION; the next command gets a new shell", async () => {
    const { pool, opened } = localPool(1);
    await expect(pool.run("sleep 5", "", 200)).rejects.toMatchObject({ code: "TEND_FLEET_CONNECTION", message: "local: no answer within 0.2 s" });
    expect(await pool.run("echo again", "", 5_000)).toEqual({ exitCode: 0, stdout: "again\n", stderr: "" });
    expect(opened()).toBe(2);
    pool.close();
  });

  it("a shell that dies mid-command answers as a lost connection (255, a line starting with Connection)", async () => {
    const { pool } = localPool(1);
    const result = await pool.run("echo partial; echo oops >&2; kill -KILL $$", "", 5_000);
    expect(result?.exitCode).toBe(255);
    expect(result?.stdout).toBe("partial\n");
    expect(result?.stderr).toMatch(/^oops\nConnection to local lost: the session ended/);
    expect(await pool.run("echo fine", "", 5_000)).toMatchObject({ stdout: "fine\n" });
    pool.close();
  });

  it("loads a library once per shell, before the first script that needs it; a script's own variables stay in its subshell", async () => {
    const { pool, opened } = localPool(1);
    const library = { name: "TEST_LIB", text: "LOADS=$((${LOADS:-0} + 1))\nhello() { printf 'hello %s (loads %s)\\n' \"$1\" \"$LOADS\"; }\n" };
    expect(await pool.script("hello one; X=mine", 5_000, library)).toEqual({ exitCode: 0, stdout: "hello one (loads 1)\n", stderr: "" });
    expect(await pool.script("hello two; echo \"[${X-}]\"", 5_000, library)).toEqual({ exitCode: 0, stdout: "hello two (loads 1)\n[]\n", stderr: "" });
    // The text is there for a script to hand to another shell.
    expect((await pool.script("printf '%s\\nhello three\\n' \"$TEST_LIB\" | sh", 5_000, library))?.stdout).toBe("hello three (loads 1)\n");
    expect(opened()).toBe(1);
    pool.close();
  });

  it("a script that does not parse fails in its subshell; the session goes on", async () => {
    const { pool, opened } = localPool(1);
    const broken = await pool.script("if then fi (", 5_000);
    expect(broken?.exitCode).not.toBe(0);
    expect(broken?.stderr).toMatch(/syntax|unexpected/i);
    expect(await pool.script("printf 'still %s\\n' here; exit 4", 5_000)).toEqual({ exitCode: 4, stdout: "still here\n", stderr: "" });
    expect(await pool.script("a\0b", 5_000)).toBeUndefined();
    expect(opened()).toBe(1);
    pool.close();
  });

  it("leaves input a here-document cannot carry to a session of its own", async () => {
    const { pool } = localPool();
    expect(await pool.run("cat", "no final newline", 5_000)).toBeUndefined();
    expect(framable("a\0b\n", "D")).toBe(false);
    expect(framable("x\nD\ny\n", "D")).toBe(false);
    expect(framable("x\nDD\n", "D")).toBe(true);
    expect(framable("", "D")).toBe(true);
    pool.close();
  });
});
