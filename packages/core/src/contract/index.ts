/**
 * `@tend/core/contract`: everything a provider needs, and all it may use of core. Types of the
 * model and the contract; `defineProvider`; `TendError` and the error catalogue; and the helpers
 * first-party providers share (exec parsing, shell quoting, schedules, the managed header, name
 * rules, resource keys, `after` entries, exit-code checks). Nothing here loads the spec machinery,
 * so a provider costs little to import.
 */
export { DIRECTORY_MODE, FILE_MODE, type Artifact, type ArtifactStore } from "./artifact.js";
export type { Capabilities } from "./capabilities.js";
export type { Operation, ResourceChange, ResourceOf } from "./change.js";
export type { ApplyContext, HostFiles, HostFileWriter, ProviderState, ReadContext, RenderContext, StoreContext } from "./context.js";
export type { HostFacts, InitName, Scope } from "./host.js";
export type { BootPrediction, Observation, Probe } from "./observation.js";
export { API_VERSION, defineProvider, type ProviderDefinition } from "./provider.js";
export type { Command, CommandResult, Runner } from "./runner.js";

export type { FileResource, Package, PlistValue, Resource, ResourceType, Service, Timer } from "../model/resource-schema.js";
export { SIGNALS, type Signal } from "../model/signals.js";
export { TendError, TendErrors, type ErrorLocation, type TendErrorOptions } from "../errors/tend-error.js";
export { CORE_ERROR_CODES, type CoreErrorCode, type TendErrorCode } from "../errors/error-codes.js";
export { errors, moreErrors } from "../errors/catalogue.js";

export { parseExec, shellStaysInFront, signalReachesProgram, type ExecLine } from "../model/exec-line.js";
export { shellQuote } from "../model/shell-quote.js";
export { parseSchedule, type Schedule, type ScheduleField } from "../schedule/parse-schedule.js";
export { nextFirings } from "../schedule/next-firings.js";
export { MANAGED_HEADER, carriesManagedHeader } from "../model/managed-header.js";
export { NAME_PATTERN, ENV_NAME_PATTERN, PACKAGE_NAME_PATTERN, PACKAGE_VERSION_PATTERN, isOneLine } from "../model/text-rules.js";
export { parseReference, canonicalReference, resourceKey, RESOURCE_TYPES, type ResourceKey } from "../model/reference.js";
export { afterServices, afterNetwork, afterTargets, isServiceAfter } from "../model/after-entries.js";
export { checkExit } from "../runner/check-exit.js";
export { processStartedAt, procStatFields } from "../observe/process-start.js";
export { closest, editDistance } from "../model/closest-word.js";
export { lookupUser, lookupGroup, type PasswdEntry } from "../host/passwd.js";
