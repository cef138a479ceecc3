import { afterServices, NAME_PATTERN, type Service } from "@tend/core/contract";

/**
 * The tend services a service orders itself after, from `after`: `"network"` is ignored (s6-rc
 * has no network target, as the seed says for runit and s6) and `*.target` entries are the core's
 * error; every other entry names another tend service.
 */
export function serviceDependencies(service: Service): string[] {
  return afterServices(service).sort();
}

/** Why an `after` entry cannot be a dependency file name, or undefined when it can. */
export function dependencyProblem(service: Service, entry: string): string | undefined {
  if (!NAME_PATTERN.test(entry)) return `\`${entry}\` is not a service name (letters, digits and \`_ . - @\`)`;
  if (entry === service.name) return `\`${entry}\` is the service itself`;
  return undefined;
}
