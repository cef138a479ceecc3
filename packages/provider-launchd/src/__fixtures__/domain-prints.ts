import { readFileSync } from "node:fs";

/**
 * Captured outputs with tend's own labels added, each line laid out like the lines around it, for
 * the tests (see README.md: outputs naming tend's labels are derived, never written from scratch).
 */

/** A captured output in this folder. */
export const fixture = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), "utf8");

/**
 * A captured domain print with our jobs added to its `services` block, each line laid out like
 * the first line already there (pid and status columns right-aligned as launchctl prints them).
 */
export function withJobs(text: string, jobs: { pid: number; status: string; label: string }[]): string {
  const lines = text.split("\n");
  const header = lines.findIndex((line) => line.trim() === "services = {");
  const template = /^(\s*)(\d+)(\s+)(\S+)(\s+)(\S+)$/.exec(lines[header + 1]!)!;
  const [, lead, pid, gap, status, gap2] = template as unknown as string[];
  const added = jobs.map((job) => {
    const pidText = String(job.pid);
    const indent = lead!.slice(0, lead!.length - Math.max(0, pidText.length - pid!.length)) + " ".repeat(Math.max(0, pid!.length - pidText.length));
    const between = gap!.slice(0, gap!.length - Math.max(0, job.status.length - status!.length)) + " ".repeat(Math.max(0, status!.length - job.status.length));
    return `${indent}${pidText}${between}${job.status}${gap2}${job.label}`;
  });
  lines.splice(header + 1, 0, ...added);
  return lines.join("\n");
}

/** A captured `disabled services` block (of print-disabled or a domain print) with overrides for our labels added in its layout. */
export function withOverrides(text: string, overrides: Record<string, string>): string {
  const lines = text.split("\n");
  const header = lines.findIndex((line) => line.trim() === "disabled services = {");
  const close = lines.findIndex((line, index) => index > header && line.trim() === "}");
  const entry = lines.slice(header + 1, close).map((line) => /^(\s*)"/.exec(line)?.[1]).find((indent) => indent !== undefined)!;
  lines.splice(close, 0, ...Object.entries(overrides).map(([label, word]) => `${entry}"${label}" => ${word}`));
  return lines.join("\n");
}

/** A captured domain print without its `disabled services` block, as some releases print it. */
export function withoutOverrides(text: string): string {
  const lines = text.split("\n");
  const header = lines.findIndex((line) => line.trim() === "disabled services = {");
  const close = lines.findIndex((line, index) => index > header && line.trim() === "}");
  lines.splice(header, close - header + 1);
  return lines.join("\n");
}
