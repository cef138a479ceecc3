export { startHost, type StartHostOptions } from "./start-host.js";
export { NODE_IN_HOST, TEND_IN_HOST } from "./container-host.js";
export type { TestHost, ExecOptions, ExecResult, ExpectTendOptions, RebootOptions, WriteFileOptions } from "./test-host.js";
export type { Truthy, WaitForOptions } from "./wait-for.js";
export { overlayStatus, type OverlayStatus } from "./overlay-status.js";
export { ensureEngine, type EnsureEngineOptions } from "./ensure-engine.js";
export { ensureImages, type EnsureImagesOptions } from "./ensure-images.js";
export { BENCH_IMAGES, HOST_IMAGES, type HostImageName, type TestImageName } from "./host-images.js";
