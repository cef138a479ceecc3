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
export { parseExec, type ExecLine } from "./model/exec-line.js";
export { shellQuote } from "./model/shell-quote.js";
export { parseSchedule, type Schedule, type ScheduleField } from "./schedule/parse-schedule.js";
export { nextFirings } from "./schedule/next-firings.js";
export { checkExit } from "./runner/check-exit.js";
export { ExecaRunner } from "./runner/execa-runner.js";
export { LocalHostFiles } from "./execute/host-files.js";
export { lookupUser, lookupGroup, type PasswdEntry } from "./host/passwd.js";
export { MANAGED_HEADER } from "./model/managed-header.js";
