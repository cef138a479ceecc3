#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { lostOutputMessage, processStream } from "./output/process-stream.js";
import { runCli } from "./run-cli.js";

const version = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
const stdout = processStream(process.stdout);
const stderr = processStream(process.stderr);
let code: number | undefined;

// Node exits quietly, with status 0, when nothing is left to wait for; a command that has not
// finished by then was waiting on a promise that can never settle. That is never success.
// Only then has every write failed that will (one to a pipe fails later, as an event), so
// output that did not reach its file is told here: an error of the run, also for plan's
// "changes" status (2), unless a signal stopped the run, whose status says so.
let ended = false;
process.on("beforeExit", () => {
  if (ended) return;
  ended = true;
  if (code === undefined) {
    process.stderr.write("error TEND_INTERNAL: tend stopped waiting before the command finished (a promise that never settles)\n  this is a bug in tend; please report it with the command you ran\n");
    process.exitCode = 1;
    return;
  }
  if (stdout.lost) stderr.write(lostOutputMessage("standard output", stdout.lost));
  if ((stdout.lost || stderr.lost) && (code === 0 || code === 2)) process.exitCode = 1;
});

code = await runCli(process.argv.slice(2), { stdout, stderr, env: process.env }, version);
process.exitCode = code;
