/**
 * @tend/fleet: tend over the system's OpenSSH client. An inventory of hosts (`tend.hosts.yaml`),
 * each planned with its own facts and init and applied through a HostAccess that reaches it over
 * one multiplexed connection; nothing but sh, coreutils-level tools and the init on the targets.
 */
export { loadInventory, parseInventory, type Inventory, type InventoryHost, type SshDestination } from "./inventory/load-inventory.js";
export { InventorySchema, buildHostsJsonSchema } from "./inventory/inventory-schema.js";
export { limitHosts } from "./inventory/limit.js";
export { SshConnection, type ShellChannel, type ShellResult } from "./ssh/ssh-connection.js";
export { RemoteHostFiles, HOST_FILES_LIB, parseUserDatabases, type HostUsers } from "./remote/remote-files.js";
export { RemoteRunner, remoteCommandLine } from "./remote/remote-runner.js";
export { RemoteLock } from "./remote/remote-lock.js";
export { detectHost, detectScript, parseDetection, type DetectedHost } from "./remote/detect-host.js";
export { runFleet, defaultParallel, type FleetOptions, type HostOutcome, type HostStatus } from "./run/run-fleet.js";
export { summaryTable, fleetExitCode, fleetJson } from "./run/summary.js";
