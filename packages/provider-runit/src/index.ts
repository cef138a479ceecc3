export { runitProvider as default, runitProvider } from "./runit-provider.js";
export { renderService } from "./render-service.js";
export { parseSvStatus, type SvStatus, type SvProcess } from "./parse-sv-status.js";
