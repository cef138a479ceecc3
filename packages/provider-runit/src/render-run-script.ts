import { MANAGED_HEADER, parseExec, shellQuote, type RenderContext, type Service } from "@tend/core/contract";
import { dependencyChecks } from "./after-dependencies.js";
import { FORGET_GROUP, startInOwnGroup } from "./process-group.js";

/** The program's argument list as sh words: `parseExec`'s argv (shell syntax is its one `/bin/sh -c`). */
export function execArgv(exec: string): string {
  return parseExec(exec).argv.map(shellQuote).join(" ");
}

/**
 * `./run`: stderr joined to stdout (both go to the log service), the environment as `export`
 * lines, a wait for every service it runs after, then `exec` of the program as the leader of its
 * own process group, so runsv supervises the program itself and a stop ends all it started.
 */
export function renderRunScript(service: Service & { exec: string }, ctx: RenderContext): string {
  const lines = ["#!/bin/sh", MANAGED_HEADER, "exec 2>&1"];
  for (const [name, value] of Object.entries(service.env ?? {})) lines.push(`export ${name}=${shellQuote(value)}`);
  const checks = dependencyChecks(service, ctx, "exit 1");
  if (checks.length > 0) lines.push(FORGET_GROUP, ...checks);
  lines.push(...startInOwnGroup(execArgv(service.exec)));
  return `${lines.join("\n")}\n`;
}
