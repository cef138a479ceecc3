export * from "./contract/index.js";
export { TendError, TendErrors, type ErrorLocation, type TendErrorOptions } from "./errors/tend-error.js";
export { errors } from "./errors/catalogue.js";
export {
  ResourceSchema,
  ServiceSchema,
  TimerSchema,
  FileSchema,
  SIGNALS,
  type Resource,
  type ResourceType,
  type Service,
  type Timer,
  type FileResource,
  type PlistValue,
  type Signal,
} from "./model/resource-schema.js";
export { parseReference, canonicalReference, resourceKey, RESOURCE_TYPES, type ResourceKey } from "./model/reference.js";
export { NAME_PATTERN, ENV_NAME_PATTERN, isOneLine } from "./model/text-rules.js";
export { parseExec, shellStaysInFront, type ExecLine } from "./model/exec-line.js";
export { shellQuote } from "./model/shell-quote.js";
export { parseSchedule, type Schedule, type ScheduleField } from "./schedule/parse-schedule.js";
export { nextFirings } from "./schedule/next-firings.js";
export { checkExit } from "./runner/check-exit.js";
export { ExecaRunner } from "./runner/execa-runner.js";
export { LocalHostFiles, type PathContent } from "./files/host-files.js";
export { lookupUser, lookupGroup, type PasswdEntry } from "./host/passwd.js";
export { MANAGED_HEADER, carriesManagedHeader } from "./model/managed-header.js";
export { moreErrors } from "./errors/catalogue.js";
export { service, timer, file, defineConfig, type TendConfig, type ResourceList } from "./model/builders.js";
export { validateSpec, dependenciesOf, type Locate } from "./model/validate-spec.js";
export { detectInit, parseInit } from "./host/detect-init.js";
export { resolveHost, type Host, type HostOptions } from "./host/host-facts.js";
export { findSpec, SPEC_NAMES } from "./spec/find-spec.js";
export { loadSpec, type Spec } from "./spec/load-spec.js";
export { planChanges, desiredOf, type PlanInput } from "./plan/plan-changes.js";
export { checkCapabilities } from "./plan/check-capabilities.js";
export { contentHash } from "./plan/content-hash.js";
export { artifactId } from "./plan/artifact-id.js";
export { hasChanges, planCounts, type Plan, type PlanEntry, type ArtifactWrite } from "./plan/plan-types.js";
export { emptyState, type StateFile, type RecordedResource, type RecordedArtifact } from "./state/state-file.js";
export { StateStore, stateDir } from "./state/state-store.js";
export { ScopeLock, type LockHolder, type LockStep } from "./state/scope-lock.js";
export { Session, type SessionOptions } from "./session/session.js";
export { ProviderRegistry } from "./session/provider-registry.js";
export { inScope } from "./session/in-scope.js";
export { applyPlan, ApplyAborted, type ApplyReport, type ApplyOptions } from "./execute/apply-plan.js";
export { verifyServices, DEFAULT_SETTLE_MS } from "./execute/verify-services.js";
export { findProviders, isProviderPackageName } from "./discovery/find-providers.js";
export { firstPartyPackage, type FoundProvider, type ProviderManifest } from "./discovery/provider-manifest.js";
export { formatPlan, planToJson } from "./output/format-plan.js";
export { formatError } from "./output/format-error.js";
export { painter, colourWanted, type Paint } from "./output/paint.js";
