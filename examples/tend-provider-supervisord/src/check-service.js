// @ts-check
import { errors, parseExec } from "@tend/core/contract";
import { carriesInEnvironment } from "./supervisor-syntax.js";

/** @typedef {import("@tend/core/contract").Service} Service */
/** @typedef {import("@tend/core/contract").TendError} TendError */

/**
 * What supervisord cannot run as written. A value `environment=` cannot hold goes through
 * `/usr/bin/env`, which would take a program path holding `=` for one more variable.
 */
export function checkService(/** @type {Service} */ service) {
  /** @type {TendError[]} */
  const problems = [];
  const throughEnv = Object.values(service.env ?? {}).some((value) => !carriesInEnvironment(value));
  const program = service.exec === undefined ? undefined : parseExec(service.exec).argv[0];
  if (throughEnv && program?.includes("=")) {
    problems.push(
      errors.invalidField(`service:${service.name}`, "exec", `the program path \`${program}\` holds \`=\`, and its env goes through /usr/bin/env, which would read the path as a variable`, {
        hint: "Move the program to a path without `=`, or keep `\"` and a leading or trailing `'` out of its env values.",
      }),
    );
  }
  return problems;
}
