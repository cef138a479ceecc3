import { markSite } from "../spec/spec-site.js";
import type { HostFacts } from "../contract/host.js";
import type { FileResource, Package, Resource, Service, Timer } from "./resource-schema.js";

type Fields<T> = Omit<T, "type" | "name">;

/** A background service: `service("syncthing", { exec: "syncthing serve", user: true, restart: "always" })`. */
export function service(name: string, fields: Fields<Service> = {}): Service {
  return markSite({ type: "service", name, ...fields });
}

/** A scheduled command: `timer("backup", { exec: "restic backup ~/Documents", schedule: "30 2 * * *" })`. */
export function timer(name: string, fields: Fields<Timer>): Timer {
  return markSite({ type: "timer", name, ...fields });
}

/** A file tend writes: `file("nginx-config", { path: "/etc/nginx/nginx.conf", content })`. */
export function file(name: string, fields: Fields<FileResource>): FileResource {
  return markSite({ type: "file", name, ...fields });
}

/**
 * A package the host's package manager installs: `pkg("nginx")`, `pkg("nginx", { version: "1.22.1-9" })`,
 * `pkg("tmux", { state: "latest" })`. Named `pkg` because `package` is a reserved word in modules.
 */
export function pkg(name: string, fields: Fields<Package> = {}): Package {
  return markSite({ type: "package", name, ...fields });
}

/** Resources, possibly nested in lists and with `false`/`undefined` holes from conditionals. */
export type ResourceList = readonly (Resource | ResourceList | false | null | undefined)[];

export interface TendConfig {
  resources: (host: HostFacts) => ResourceList | Promise<ResourceList>;
  /** Provider packages to load besides the discovered ones (names or paths). */
  providers?: string[];
}

/**
 * The default export of `tend.config.ts`: a function of the host's facts, a plain list, or an
 * object naming extra providers.
 */
export function defineConfig(
  config: ((host: HostFacts) => ResourceList | Promise<ResourceList>) | ResourceList | { resources: TendConfig["resources"] | ResourceList; providers?: string[] },
): TendConfig {
  if (typeof config === "function") return { resources: config };
  if (Array.isArray(config)) return { resources: () => config as ResourceList };
  const object = config as { resources: TendConfig["resources"] | ResourceList; providers?: string[] };
  const resources = object.resources;
  return {
    resources: typeof resources === "function" ? resources : () => resources,
    ...(object.providers ? { providers: object.providers } : {}),
  };
}
