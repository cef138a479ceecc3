// @ts-check
export { supervisordProvider as default, supervisordProvider } from "./supervisord-provider.js";
export { renderProgram } from "./render-program.js";
export { parseStatus } from "./parse-status.js";
