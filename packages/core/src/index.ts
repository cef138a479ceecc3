/**
 * @tend/core's main entry, for specs and programmatic use: the model with its zod schemas, spec
 * loading, the session, planner and executor, discovery and output. A provider imports
 * `@tend/core/contract` only, which this entry re-exports.
 */
export * from "./runtime.js";
export { ResourceSchema, ServiceSchema, TimerSchema, FileSchema, PackageSchema } from "./model/resource-schema.js";
export { validateSpec, type Locate } from "./model/validate-spec.js";
