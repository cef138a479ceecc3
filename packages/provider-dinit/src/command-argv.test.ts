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

  it("keeps a program path holding `=` from being read as an assignment", () => {
    expect(commandArgv("/opt/a=b/run --flag", { X: "1" })).toEqual(["/usr/bin/env", "X=1", "/bin/sh", "-c", "/opt/a=b/run --flag"]);
  });
});
