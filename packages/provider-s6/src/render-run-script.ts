import { MANAGED_HEADER, parseExec, shellQuote, type Service } from "@tend/core/contract";

/**
 * The longrun's `run` script: the environment as quoted `export` lines, stderr joined to stdout
 * (so a logger, or s6-svscan's catch-all log, keeps both in order), then `exec` of the command
 * so s6-supervise supervises the program itself. Shell syntax runs through `/bin/sh -c`.
 */
export function renderRunScript(service: Service & { exec: string }): string {
  const lines = ["#!/bin/sh", MANAGED_HEADER, "exec 2>&1"];
  for (const [name, value] of Object.entries(service.env ?? {})) {
    lines.push(`export ${name}=${shellQuote(value)}`);
  }
  lines.push(`exec ${parseExec(service.exec).argv.map(shellQuote).join(" ")}`);
  return `${lines.join("\n")}\n`;
}
