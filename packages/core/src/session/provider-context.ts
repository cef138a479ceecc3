import type { ApplyContext } from "../contract/context.js";
import type { HostFacts, Scope } from "../contract/host.js";
import type { Runner } from "../contract/runner.js";
import type { HostFileAccess } from "../host/host-access.js";
import type { StateFile } from "../state/state-file.js";

export interface ContextParts {
  facts: HostFacts;
  scope: Scope;
  runner: Runner;
  files: HostFileAccess;
  root: string | undefined;
  /** Under `--root`: write and enable offline, start nothing. */
  offline: boolean;
  log: (line: string) => void;
}

/** The context a provider gets; its state bag lives in the state file under its name. */
export function providerContext(parts: ContextParts, state: StateFile, providerName: string): ApplyContext {
  const bag = (state.providers[providerName] ??= {});
  return {
    host: parts.facts,
    init: parts.facts.init,
    scope: parts.scope,
    run: parts.runner,
    files: parts.files,
    ...(parts.root && parts.offline ? { root: parts.root } : {}),
    offline: parts.offline,
    state: {
      get: <T>(key: string) => bag[key] as T | undefined,
      set: (key: string, value: unknown) => {
        if (value === undefined) delete bag[key];
        else bag[key] = value;
      },
    },
    log: parts.log,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
