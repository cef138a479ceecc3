/**
 * @tend/core's main entry, for specs and programmatic use: the model with its zod schemas, spec
 * loading, the session, planner and executor, discovery and output. A provider imports
 * `@tend/core/contract` only, which this entry re-exports.
 */
export * from "./runtime.js";
export * from "./model/schemas.js";
