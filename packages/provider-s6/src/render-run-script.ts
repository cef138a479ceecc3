import { MANAGED_HEADER, parseExec, shellQuote, type Service } from "@tend/core/contract";
import { startAsSessionLeader } from "./process-session.js";

/**
 * The longrun's `run` script: stderr joined to stdout (so a logger, or s6-svscan's catch-all log,
 * keeps both in order), the environment as quoted `export` lines, a note of the session it leads,
 * then `exec` of `parseExec`'s argv, so s6-supervise supervises and signals the program itself.
 * Shell syntax is parseExec's one `/bin/sh -c`; tend adds no shell of its own.
 */
export function renderRunScript(service: Service & { exec: string }): string {
  const lines = ["#!/bin/sh", MANAGED_HEADER, "exec 2>&1"];
  for (const [name, value] of Object.entries(service.env ?? {})) {
    lines.push(`export ${name}=${shellQuote(value)}`);
  }
  lines.push(...startAsSessionLeader(parseExec(service.exec).argv.map(shellQuote).join(" ")));
  return `${lines.join("\n")}\n`;
}
