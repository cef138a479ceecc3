import { describe, expect, it } from "vitest";
import { parseExec } from "./exec-line.js";
import { shellQuote } from "./shell-quote.js";
import { execFileSync } from "node:child_process";

describe("parseExec", () => {
  it("looks a bare command up through /usr/bin/env and keeps full paths", () => {
    expect(parseExec("syncthing serve --no-browser").argv).toEqual(["/usr/bin/env", "syncthing", "serve", "--no-browser"]);
    expect(parseExec("/opt/web/bin/server --port 8080").argv).toEqual(["/opt/web/bin/server", "--port", "8080"]);
  });
  it.each(["restic backup ~/Documents", "a | b", "a > f", "echo $HOME", "ls *.txt", "FOO=1 cmd", "echo 'x y'"])("runs shell syntax through /bin/sh -c: %s", (line) => {
    expect(parseExec(line)).toMatchObject({ kind: "shell", argv: ["/bin/sh", "-c", line] });
  });
});

describe("shellQuote", () => {
  it.each(["plain", "", "a b", "$(id)", "`id`", "it's", "back\\slash", "%F", "tab\there", "ünï"])("round-trips %j through sh", (value) => {
    expect(execFileSync("/bin/sh", ["-c", `printf %s ${shellQuote(value)}`], { encoding: "utf8" })).toBe(value);
  });
});
