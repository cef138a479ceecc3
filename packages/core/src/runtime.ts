/**
 * `@tend/core/runtime`: what running tend needs (spec loading, the session, planner and executor,
 * discovery and output), everything `@tend/core` offers except the zod schemas and the synchronous
 * `validateSpec`, so loading it does not load zod. The CLI imports this entry; the two share one
 * copy of every class (`TendError`, `Session`, …).
 */
export * from "./contract/index.js";
export { ProcessRunner, ExecaRunner } from "./runner/process-runner.js";
export { LocalHostFiles, type FileAttributes, type PathContent } from "./files/host-files.js";
export { LocalHostAccess, type HostAccess, type HostFileAccess, type HostLock } from "./host/host-access.js";
export type { FileOperation } from "./files/file-operation.js";
export { contentText, type FileContent } from "./files/file-content.js";
export type { Ownership } from "./files/atomic-write.js";
export { SECRET_NAME, secretValues } from "./model/secret-env.js";
export { firstShortfall, type FolderRoom, type RoomNeed, type Shortfall } from "./files/room-needed.js";
export { service, timer, file, pkg, defineConfig, type TendConfig, type ResourceList } from "./model/builders.js";
export { dependenciesOf } from "./model/dependencies-of.js";
export { detectInit, parseInit } from "./host/detect-init.js";
export { resolveHost, type Host, type HostOptions } from "./host/host-facts.js";
export { findSpec, SPEC_NAMES } from "./spec/find-spec.js";
export { inputFileProblem, MAX_INPUT_BYTES } from "./files/input-file.js";
export { loadSpec, openSpec, type Spec, type OpenedSpec, type OpenSpecOptions } from "./spec/load-spec.js";
export { ContentCache, cacheDir } from "./cache/content-cache.js";
export { planChanges, type PlanInput } from "./plan/plan-changes.js";
export { desiredOf } from "./plan/desired-of.js";
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
export { type FoundProvider, type ProviderManifest, type InitDeclaration } from "./discovery/provider-manifest.js";
export { InitCatalogue, type KnownInit, type HostProbe } from "./discovery/init-catalogue.js";
export { CORE_VERSION } from "./discovery/load-provider.js";
export { formatPlan, planToJson } from "./output/format-plan.js";
export { formatError } from "./output/format-error.js";
export { addSpecLines } from "./spec/spec-lines.js";
export { PLAIN, type Paint } from "./output/paint.js";
