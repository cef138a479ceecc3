import type { Operation } from "../contract/change.js";
import { isNormalHostPath } from "../files/host-path.js";
import { RESOURCE_TYPES } from "../model/reference.js";
import { emptyState, type RecordedArtifact, type RecordedResource, type StateFile } from "./state-file.js";

const OPERATIONS: readonly string[] = ["enable", "disable", "start", "stop", "restart", "reload"] satisfies Operation[];
const CORE_STORES = ["file", "symlink", "directory"];

export class StateShapeError extends Error {}

/** A state written by a newer tend, in a version this one does not read. */
export class StateTooNewError extends StateShapeError {
  constructor(readonly version: number) {
    super(`it was written by a newer tend (state version ${version}; this tend reads versions 1 and 2)`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads a state file's text. The shape must be the state's (else StateShapeError: the whole
 * file is unusable); a record or artifact that cannot be trusted — a path that is not absolute
 * and normal, a key that does not match its resource — is left out and described in `problems`,
 * so it is reported and never acted on. A state may travel inside an image: its paths are input.
 * A user's state is the user's to write: with `home`, a path of the core's stores outside it is
 * such an entry (a user's run touches only the user's home; a forged entry would have root delete
 * a file of root's when it applies `--user NAME`).
 */
export function parseState(text: string, home?: string): { state: StateFile; problems: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new StateShapeError(`it is not JSON (${(error as Error).message})`);
  }
  if (!isObject(raw)) throw new StateShapeError("it is not a JSON object");
  if (typeof raw.version === "number" && Number.isInteger(raw.version) && raw.version > 2) throw new StateTooNewError(raw.version);
  if (raw.version !== 1 && raw.version !== 2) throw new StateShapeError(`its version is ${JSON.stringify(raw.version)}, and this tend reads versions 1 and 2`);
  if (typeof raw.serial !== "number" || !Number.isInteger(raw.serial) || raw.serial < 0) throw new StateShapeError("its `serial` is not a whole number");
  if (!isObject(raw.resources)) throw new StateShapeError("its `resources` is not an object");
  if (raw.providers !== undefined && !isObject(raw.providers)) throw new StateShapeError("its `providers` is not an object");
  const problems: string[] = [];
  const state = emptyState();
  state.serial = raw.serial;
  for (const [name, bag] of Object.entries(raw.providers ?? {})) {
    if (isObject(bag)) state.providers[name] = bag;
    else problems.push(`the state's entry for provider ${name} is not an object; tend ignores it`);
  }
  for (const [key, value] of Object.entries(raw.resources)) {
    const record = parseRecord(key, value, problems, home);
    if (record) state.resources[key] = record;
  }
  return { state, problems };
}

/** One resource record, or undefined (with a problem) when it cannot be trusted; `home` as for parseState. */
export function parseRecord(key: string, value: unknown, problems: string[], home?: string): RecordedResource | undefined {
  const reject = (why: string) => {
    problems.push(`the state's record of ${JSON.stringify(key)} ${why}; tend ignores it`);
    return undefined;
  };
  if (!isObject(value)) return reject("is not an object");
  const resource = value.resource;
  if (!isObject(resource) || typeof resource.type !== "string" || typeof resource.name !== "string") return reject("has no resource with a type and a name");
  if (!(RESOURCE_TYPES as readonly string[]).includes(resource.type)) return reject(`names an unknown type ${JSON.stringify(resource.type)}`);
  if (`${resource.type}:${resource.name}` !== key) return reject(`holds ${resource.type}:${resource.name}`);
  if (typeof value.provider !== "string") return reject("names no provider");
  if (!Array.isArray(value.artifacts)) return reject("has no list of artifacts");
  if (value.pending !== undefined && (!Array.isArray(value.pending) || value.pending.some((op) => !OPERATIONS.includes(op as string)))) {
    return reject("lists pending operations tend does not know");
  }
  const why = value.pendingWhy;
  if (why !== undefined && (!isObject(why) || Object.entries(why).some(([op, text]) => !OPERATIONS.includes(op) || typeof text !== "string"))) {
    return reject("gives reasons for pending operations tend does not know");
  }
  const artifacts: RecordedArtifact[] = [];
  for (const item of value.artifacts as unknown[]) {
    const artifact = parseArtifact(item, home);
    if (typeof artifact === "string") problems.push(`the state's record of ${key} ${artifact}; tend ignores that entry and never touches its path`);
    else artifacts.push(artifact);
  }
  return {
    resource: resource as unknown as RecordedResource["resource"],
    provider: value.provider,
    artifacts,
    ...(typeof value.version === "string" ? { version: value.version } : {}),
    ...(value.pending ? { pending: value.pending as Operation[] } : {}),
    ...(why ? { pendingWhy: why as RecordedResource["pendingWhy"] } : {}),
  };
}

function parseArtifact(item: unknown, home: string | undefined): RecordedArtifact | string {
  if (!isObject(item) || typeof item.store !== "string" || typeof item.path !== "string") return "holds an artifact without a store and a path";
  if (CORE_STORES.includes(item.store) && !isNormalHostPath(item.path)) return `records the path ${JSON.stringify(item.path)}, which is not an absolute, normal path`;
  if (CORE_STORES.includes(item.store) && home !== undefined && !item.path.startsWith(`${home}/`)) {
    return `records ${item.path}, outside ${home}, where a run of this user's services and files writes nothing`;
  }
  if (item.hash !== null && typeof item.hash !== "string") return `records ${item.path} without a hash`;
  if (item.writing !== undefined && typeof item.writing !== "string") return `records ${item.path} with a bad pending hash`;
  if (item.ephemeral !== undefined && (!Array.isArray(item.ephemeral) || item.ephemeral.some((e) => typeof e !== "string" || e.includes("/") || e === ".." || e === "."))) {
    return `records ${item.path} with bad ephemeral entries`;
  }
  return {
    store: item.store,
    path: item.path,
    hash: item.hash as string | null,
    ...(item.writing !== undefined ? { writing: item.writing as string } : {}),
    ...(item.ephemeral !== undefined ? { ephemeral: item.ephemeral as string[] } : {}),
  };
}
