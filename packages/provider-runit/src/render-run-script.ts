import { MANAGED_HEADER, parseExec, shellQuote, type RenderContext, type Service } from "@tend/core";
import { dependencyChecks } from "./after-dependencies.js";

/** The command line that replaces the run script: argv words quoted, shell syntax through sh -c. */
export function execCommand(exec: string): string {
  const line = parseExec(exec);
  return line.kind === "shell" ? `exec /bin/sh -c ${shellQuote(line.script)}` : `exec ${line.argv.map(shellQuote).join(" ")}`;
}

/**
 * `./run`: stderr joined to stdout (both go to the log service), the environment as `export`
 * lines, a wait for every service it runs after, then `exec` of the command so runsv supervises
 * the program itself.
 */
export function renderRunScript(service: Service & { exec: string }, ctx: RenderContext): string {
  const lines = ["#!/bin/sh", MANAGED_HEADER, "exec 2>&1"];
  for (const [name, value] of Object.entries(service.env ?? {})) lines.push(`export ${name}=${shellQuote(value)}`);
  lines.push(...dependencyChecks(service, ctx, "exit 1"));
  lines.push(execCommand(service.exec));
  return `${lines.join("\n")}\n`;
}
