import type { Observation } from "../contract/observation.js";
import { dependenciesOf } from "../model/dependencies-of.js";
import type { Resource } from "../model/resource-schema.js";

/**
 * The resources that come after a package this apply installs (`requires`, `restartOn`,
 * `reloadOn`, directly or through others): a package wanted here that the host does not have.
 * By the time apply reaches them, the package's own users and groups exist (postgresql's
 * `postgres`), so plan must not refuse them for lacking one. The spec is validated, so the
 * references form no cycle.
 */
export function afterAnInstall(resources: Resource[], observations: Map<string, Observation>): Set<string> {
  const byKey = new Map(resources.map((resource) => [`${resource.type}:${resource.name}`, resource]));
  const known = new Map<string, boolean>();
  const installs = (key: string, resource: Resource) => resource.type === "package" && resource.state !== "absent" && observations.get(key)?.exists !== true;
  const comesAfter = (key: string): boolean => {
    const memo = known.get(key);
    if (memo !== undefined) return memo;
    known.set(key, false);
    const answer = dependenciesOf(byKey.get(key)!).some((dep) => {
      const other = byKey.get(dep);
      return other !== undefined && (installs(dep, other) || comesAfter(dep));
    });
    known.set(key, answer);
    return answer;
  };
  return new Set([...byKey.keys()].filter(comesAfter));
}
