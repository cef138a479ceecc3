import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { HARD_STACK_LIMIT_SCRIPT, withHardStackLimit } from "./with-hard-stack-limit.js";

/** Runs `argv` under /bin/sh with the soft stack limit first lowered to 1 MB, as a real parent would pass it down. */
function underLowSoftLimit(argv: string[]): string {
  const quoted = argv.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(" ");
  return execFileSync("/bin/sh", ["-c", `ulimit -S -s 1024 && exec ${quoted}`], { encoding: "utf8" });
}

describe("withHardStackLimit", () => {
  it("runs the program through sh, its name as $0", () => {
    expect(withHardStackLimit(["s6-rc-compile", "/db", "/sv"])).toEqual(["sh", "-c", HARD_STACK_LIMIT_SCRIPT, "s6-rc-compile", "/db", "/sv"]);
  });

  it("raises the soft stack limit to the hard one for the program, which gets its arguments as given", () => {
    const [soft, hard, ...args] = underLowSoftLimit(withHardStackLimit(["sh", "-c", 'ulimit -S -s; ulimit -H -s; printf "%s\\n" "$@"', "sh", "a b", "$c"])).trim().split("\n");
    // Without the raise the program would see the parent's 1024.
    expect(underLowSoftLimit(["sh", "-c", "ulimit -S -s"]).trim()).toBe("1024");
    expect(soft).toBe(hard);
    expect(args).toEqual(["a b", "$c"]);
  });

  it("execs the program: its exit status and its death by a signal are the program's own", () => {
    const exit = (() => {
      try {
        underLowSoftLimit(withHardStackLimit(["sh", "-c", "exit 7"]));
        return 0;
      } catch (error) {
        return (error as { status: number }).status;
      }
    })();
    expect(exit).toBe(7);
    const signal = (() => {
      try {
        underLowSoftLimit(withHardStackLimit(["sh", "-c", "kill -SEGV $$"]));
        return null;
      } catch (error) {
        return (error as { signal: string | null; status: number | null }).signal ?? (error as { status: number }).status;
      }
    })();
    expect(signal).toBe("SIGSEGV");
  });
});
