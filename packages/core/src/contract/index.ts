export type { Artifact, ArtifactStore } from "./artifact.js";
export type { Capabilities } from "./capabilities.js";
export type { Operation, ResourceChange } from "./change.js";
export type {
  ApplyContext,
  HostFiles,
  HostFileWriter,
  ProviderState,
  ReadContext,
  RenderContext,
  StoreContext,
} from "./context.js";
export { INITS, INIT_DISPLAY_NAMES, type HostFacts, type InitName, type Scope } from "./host.js";
export type { Observation, Probe } from "./observation.js";
export { API_VERSION, defineProvider, type ProviderDefinition } from "./provider.js";
export type { Command, CommandResult, Runner } from "./runner.js";
