#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { runCli } from "./run-cli.js";
import type { Paint } from "@tend/core";

const plain: Paint = { green: (t) => t, yellow: (t) => t, red: (t) => t, cyan: (t) => t, dim: (t) => t, bold: (t) => t };

async function main(): Promise<void> {
  // Colour only on a terminal and without NO_COLOR; core is imported only when colour is wanted.
  const paintFor = async (stream: NodeJS.WriteStream) => {
    if (!stream.isTTY) return plain;
    const { colourWanted, painter } = await import("@tend/core");
    return colourWanted(stream) ? painter(true) : plain;
  };
  const version = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
  const code = await runCli(
    process.argv.slice(2),
    {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      paint: await paintFor(process.stdout),
      paintErr: await paintFor(process.stderr),
    },
    version,
  );
  process.exitCode = code;
  finished = true;
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
void main();
