/** `--diff`'s output, loaded only when asked for (it brings the diff library). */
export { diffSection } from "./diff-section.js";
export { planDiffs } from "./plan-diffs.js";
