import type { SupervisedStatus } from "./parse-svstat-batch.js";

/** One line in s6-svstat's own words (`up (pid 8151) 5 seconds, ready`), for messages. */
export function describeStatus(status: SupervisedStatus | undefined, notifies = false): string {
  if (!status || !status.supervised) return "no s6-supervise runs on it";
  const parts: string[] = [];
  if (status.up) parts.push(`up (pid ${status.pid ?? "?"}) ${status.forSeconds} seconds`);
  else if (status.signal) parts.push(`down (signal ${status.signal}) ${status.forSeconds} seconds`);
  else parts.push(`down (exitcode ${status.exitCode ?? "?"}) ${status.forSeconds} seconds`);
  if (status.up !== status.wantedUp) parts.push(status.wantedUp ? "want up" : "want down");
  if (status.up && notifies) parts.push(status.ready ? "ready" : "not ready yet");
  return parts.join(", ");
}
