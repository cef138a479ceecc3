import type { FileResource, Package, ResourceType, Service, Timer } from "../model/resource-schema.js";

/** What apply asks of the init for one resource, in this order. */
export type Operation = "enable" | "disable" | "start" | "stop" | "restart" | "reload";

/** The resources by type. */
interface ResourcesByType {
  service: Service;
  timer: Timer;
  file: FileResource;
  package: Package;
}

/** The resource of one type (`ResourceOf<"service">` is a Service). */
export type ResourceOf<T extends ResourceType> = ResourcesByType[T];

/** One resource's part of a plan, as handed to a provider's `apply` or `remove`. */
export interface ResourceChange<T extends ResourceType = ResourceType> {
  /** `service:web`. */
  key: string;
  action: "add" | "change" | "remove";
  /** The declared resource; for a removal, the one the state file recorded. */
  resource: ResourceOf<T>;
  /** What the state file recorded, when anything was (changes and removals). */
  previous?: ResourceOf<T>;
  /** The init operations to carry out, in order (empty for a removal: see `remove`). */
  ops: Operation[];
  /**
   * True when any of its artifacts were (re)written or deleted in this apply, or when the init
   * runs an older definition than they hold (loaded-definition drift): either way the init must
   * load the definition again (daemon-reload, `dinitctl reload`, a new s6-rc database) before the
   * restart.
   */
  filesChanged: boolean;
  /** Why, in plan wording (`file:nginx-config changed, restartOn matched`). */
  reasons: string[];
}
