// @ts-check
import { programName } from "./program-names.js";
import { supervisorctl } from "./supervisorctl.js";

/** @typedef {import("@tend/core/contract").ReadContext} ReadContext */
/** @typedef {import("@tend/core/contract").Service} Service */

const BYTES = 4000;
const LINES = 20;

/** The program's last output lines (stderr goes to stdout), from `supervisorctl tail`. */
export async function readLogs(/** @type {Service} */ service, /** @type {ReadContext} */ ctx) {
  const result = await supervisorctl(ctx, ["tail", `-${BYTES}`, programName(service.name)]);
  if (result.exitCode !== 0) return [`supervisorctl tail: ${`${result.stdout}${result.stderr}`.trim()}`];
  const lines = result.stdout.split("\n");
  // A tail of exactly BYTES bytes most likely starts inside a line.
  if (Buffer.byteLength(result.stdout) >= BYTES) lines.shift();
  return lines.filter((line) => line !== "").slice(-LINES);
}
