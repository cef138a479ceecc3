export { openrcProvider as default } from "./openrc-provider.js";
export { renderInitScript } from "./render-init-script.js";
export { parseRcStatus, type RcStatusEntry } from "./parse-rc-status.js";
export { scriptCanReload } from "./script-can-reload.js";
