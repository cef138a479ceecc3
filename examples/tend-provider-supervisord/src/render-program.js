// @ts-check
import { MANAGED_HEADER, parseExec } from "@tend/core/contract";
import { confPath, programName } from "./program-names.js";
import { carriesInEnvironment, commandValue, environmentValue } from "./supervisor-syntax.js";

/** @typedef {import("@tend/core/contract").Artifact} Artifact */
/** @typedef {import("@tend/core/contract").Service} Service */

/** `restart` as supervisord's settings; `"no"` (the default) also gives up after a failed start. */
const RESTART = {
  no: ["autorestart=false", "startretries=0"],
  on_failure: ["autorestart=unexpected", "exitcodes=0"],
  always: ["autorestart=true"],
};

/**
 * A service's one artifact: `/etc/supervisor/conf.d/tend-<name>.conf`, a `[program:tend-<name>]`
 * section. `autostart` is `desired.enabled` (supervisord starts it when it starts, and when the
 * program is added); stopping signals the whole process group. `env` goes in `environment=`,
 * or, when a value is one supervisor cannot read back, through `/usr/bin/env`, which execs the
 * program in its own place.
 */
export function renderProgram(/** @type {Service} */ service) {
  const name = programName(service.name);
  const env = Object.entries(service.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const argv = parseExec(service.exec ?? "").argv;
  const viaEnv = env.some(([, value]) => !carriesInEnvironment(value));
  const lines = [MANAGED_HEADER];
  if (service.description !== undefined) lines.push(`# ${service.description}`);
  lines.push(`[program:${name}]`);
  if (viaEnv) {
    const keys = env.filter(([, value]) => !carriesInEnvironment(value)).map(([key]) => key);
    lines.push(`# env goes through /usr/bin/env: supervisor's environment= cannot hold the value of ${keys.join(", ")}`);
    lines.push(`command=${commandValue(["/usr/bin/env", ...env.map(([key, value]) => `${key}=${value}`), ...argv])}`);
  } else {
    lines.push(`command=${commandValue(argv)}`);
    if (env.length > 0) lines.push(`environment=${environmentValue(env)}`);
  }
  lines.push(
    `autostart=${service.desired?.enabled ?? true}`,
    ...RESTART[service.restart ?? "no"],
    "stopasgroup=true",
    "killasgroup=true",
    "redirect_stderr=true",
  );
  /** @type {Artifact[]} */
  const artifacts = [{ path: confPath(service.name), content: `${lines.join("\n")}\n`, mode: 0o644 }];
  return artifacts;
}

/** What a program file says about starting at boot: its `autostart=` line (supervisord's default is true). */
export function autostartOf(/** @type {string} */ content) {
  const line = /^autostart\s*=\s*(\S+)/m.exec(content);
  return line === null || /^(true|yes|on|1)$/i.test(line[1] ?? "");
}
