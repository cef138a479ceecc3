#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { runCli, type OutStream } from "./run-cli.js";

/**
 * A stream whose reader may go away (`tend render | head -1`): once it has, further output is
 * dropped instead of failing with EPIPE, and tend finishes what it was doing (an apply is never
 * cut short by a closed pipe) and exits with its own status.
 */
function forgiving(stream: NodeJS.WriteStream): OutStream {
  let closed = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") closed = true;
    else throw error;
  });
  return {
    write: (text: string) => (closed ? true : stream.write(text)),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
  };
}

// Node exits quietly, with status 0, when nothing is left to wait for; a command that has not
// finished by then was waiting on a promise that can never settle. That is never success.
let finished = false;
process.on("beforeExit", () => {
  if (finished) return;
  finished = true;
  process.stderr.write("error TEND_INTERNAL: tend stopped waiting before the command finished (a promise that never settles)\n  this is a bug in tend; please report it with the command you ran\n");
  process.exitCode = 1;
});

const version = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
const code = await runCli(process.argv.slice(2), { stdout: forgiving(process.stdout), stderr: forgiving(process.stderr), env: process.env }, version);
finished = true;
process.exitCode = code;
