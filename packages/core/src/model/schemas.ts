/**
 * The zod side of core in one module: the resource schemas, `validateSpec` and
 * `validateResource`. `@tend/core` exports it; the runtime loads it on first use (a spec that
 * changed), so a start that needs no validation never loads zod.
 */
export { ResourceSchema, ServiceSchema, TimerSchema, FileSchema, PackageSchema } from "./resource-schema.js";
export { validateSpec, validateResource, type Locate } from "./validate-spec.js";
