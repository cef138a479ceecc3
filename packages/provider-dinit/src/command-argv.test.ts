import { describe, expect, it } from "vitest";
import { commandArgv } from "./command-argv.js";

describe("commandArgv", () => {
  it("looks a bare command up on PATH through /usr/bin/env", () => {
    expect(commandArgv("syncthing serve --no-browser")).toEqual(["/usr/bin/env", "syncthing", "serve", "--no-browser"]);
  });

  it("runs a full path directly", () => {
    expect(commandArgv("/opt/web/bin/server --port 8080")).toEqual(["/opt/web/bin/server", "--port", "8080"]);
  });

  it("runs shell syntax through /bin/sh -c", () => {
    expect(commandArgv("restic backup ~/Documents")).toEqual(["/bin/sh", "-c", "exec restic backup ~/Documents"]);
  });

  it("puts env first as /usr/bin/env assignments, sorted by name", () => {
    expect(commandArgv("/opt/web/bin/server --port 8080", { RUST_LOG: "info", A: "x y" })).toEqual([
      "/usr/bin/env",
      "A=x y",
      "RUST_LOG=info",
      "/opt/web/bin/server",
      "--port",
      "8080",
    ]);
  });

  it("shares the /usr/bin/env of a bare command", () => {
    expect(commandArgv("syncthing serve", { HOME: "/srv" })).toEqual(["/usr/bin/env", "HOME=/srv", "syncthing", "serve"]);
  });

  it("wraps a shell line after the assignments", () => {
    expect(commandArgv("echo $X | cat", { X: "1" })).toEqual(["/usr/bin/env", "X=1", "/bin/sh", "-c", "echo $X | cat"]);
  });

  it("hands a program path holding `=` to a shell that execs it, so env does not read it as an assignment", () => {
    expect(commandArgv('/opt/a=b/run --flag "two words" \'$HOME\'', { X: "1" })).toEqual([
      "/usr/bin/env",
      "X=1",
      "/bin/sh",
      "-c",
      'exec "$0" "$@"',
      "/opt/a=b/run",
      "--flag",
      "two words",
      "$HOME",
    ]);
  });

  it("needs no shell for a program path holding `=` when there is no env", () => {
    expect(commandArgv("/opt/a=b/run --flag")).toEqual(["/opt/a=b/run", "--flag"]);
  });

  it("passes a quoted simple command through env as its exact words", () => {
    expect(commandArgv('/opt/demo/bin/demo web "" "daemon off;"', { GREETING: "it's $HOME" })).toEqual([
      "/usr/bin/env",
      "GREETING=it's $HOME",
      "/opt/demo/bin/demo",
      "web",
      "",
      "daemon off;",
    ]);
  });

  it("keeps an argument holding `=` after the program an argument", () => {
    expect(commandArgv("/opt/web/bin/server --port=8080 A=B", { X: "1" })).toEqual(["/usr/bin/env", "X=1", "/opt/web/bin/server", "--port=8080", "A=B"]);
  });
});
