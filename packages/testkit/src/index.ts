export { RecordingRunner } from "./recording-runner.js";
export { renderContext, applyContext, readContext, ALICE, type TestApplyContext, type TestContextOptions } from "./test-context.js";
export { writeHostTree, type HostTree, type HostTreeEntry } from "./write-host-tree.js";
