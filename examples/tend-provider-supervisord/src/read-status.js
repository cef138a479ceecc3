// @ts-check
import { parseStatus } from "./parse-status.js";
import { supervisorctl, unreachable } from "./supervisorctl.js";

/** @typedef {import("@tend/core/contract").ReadContext} ReadContext */

/**
 * Every program's status from one `supervisorctl status`. It exits 0 when all run and 3 when
 * some do not (LSB's codes); anything else means supervisord was not reached.
 */
export async function readStatus(/** @type {ReadContext} */ ctx) {
  const result = await supervisorctl(ctx, ["status"]);
  if (result.exitCode !== 0 && result.exitCode !== 3) throw unreachable(result);
  return parseStatus(result.stdout);
}
