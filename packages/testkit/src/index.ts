export { RecordingRunner } from "./recording-runner.js";
export { renderContext, applyContext, readContext, ALICE, type TestApplyContext, type TestContextOptions } from "./test-context.js";
export { writeHostTree, type HostTree, type HostTreeEntry } from "./write-host-tree.js";
export { goldenListing, expectGolden } from "./golden-listing.js";
export { build } from "./resources.js";
export { describeConformance, type ConformanceOptions } from "./conformance/describe-conformance.js";
export { CAPABILITY_PROBES, type CapabilityProbe } from "./conformance/capability-probes.js";
export { sampleResources } from "./conformance/sample-resources.js";
