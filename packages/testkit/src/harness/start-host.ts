import { GenericContainer } from "testcontainers";
import { ContainerHost, NODE_IN_HOST, TEND_IN_HOST } from "./container-host.js";
import { ensureEngine } from "./ensure-engine.js";
import { ensureImages } from "./ensure-images.js";
import { HOST_IMAGE_SPECS, isHostImageName, type HostImageName } from "./host-images.js";
import { repoRoot } from "./repo-root.js";
import type { TestHost } from "./test-host.js";
import { waitForBoot } from "./wait-for-boot.js";

export interface StartHostOptions {
  /** More bind mounts, e.g. a fixtures folder. The repo and node are always mounted. */
  mounts?: ReadonlyArray<{ source: string; target: string; readOnly?: boolean }>;
  /** Environment of the init (PID 1). */
  env?: Record<string, string>;
  /** How long the init may take to finish booting. Default 120 s. */
  bootTimeoutMs?: number;
}

/**
 * Boots a container of the image `name` into its init and waits until the init is really up
 * (systemd: running or degraded, alice's manager active; runit: runsvdir supervising; OpenRC: the
 * default runlevel started; s6: s6-svscan listening; dinit: `boot` started; s6-rc: the live state
 * initialised; supervisord: supervisorctl answering). The container has no network but loopback
 * (`--network none`); node is mounted at /usr/local/bin/node and the tend checkout read-only at
 * /opt/tend. Builds the image first if it is missing. A host that does not boot is removed and the error carries its logs.
 */
export async function startHost(name: HostImageName, options: StartHostOptions = {}): Promise<TestHost> {
  if (!isHostImageName(name)) throw new Error(`unknown host image ${JSON.stringify(name)}`);
  prepareTestcontainers();
  await ensureEngine();
  const image = (await ensureImages([name]))[name]!;
  const started = await containerFor(name, image, options).start();
  const host = new ContainerHost(name, image, started);
  try {
    await waitForBoot(host, HOST_IMAGE_SPECS[name].ready, options.bootTimeoutMs ?? 120_000);
  } catch (error) {
    const logs = await host.logs();
    await host.stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n\n${logs}`, { cause: error });
  }
  return host;
}

/**
 * Ryuk (testcontainers' reaper) would need an image from a registry: off, unless set. The engine
 * answers on its unix socket, but this machine has /.dockerenv, so testcontainers would look for a
 * `bridge` network to find the host's address, and there is none (dockerd --bridge=none); the
 * address only matters for mapped ports, which hosts without a network never have.
 */
function prepareTestcontainers(): void {
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= "true";
  process.env.TESTCONTAINERS_HOST_OVERRIDE ??= "localhost";
}

function containerFor(name: HostImageName, image: string, options: StartHostOptions): GenericContainer {
  const spec = HOST_IMAGE_SPECS[name];
  const mounts = [
    { source: process.env.TEND_IT_NODE ?? process.execPath, target: NODE_IN_HOST, mode: "ro" as const },
    { source: repoRoot(), target: TEND_IN_HOST, mode: "ro" as const },
    ...(options.mounts ?? []).map((m) => ({ source: m.source, target: m.target, mode: m.readOnly ? ("ro" as const) : ("rw" as const) })),
  ];
  const labels: Record<string, string> = { "tend-it.image": name };
  if (process.env.TEND_IT_RUN) labels["tend-it.run"] = process.env.TEND_IT_RUN;
  const container = new HostContainer(image, spec.bootsSystemd === true)
    .withNetworkMode("none")
    .withHostname(`${name}-host`)
    .withLabels(labels)
    .withPullPolicy({ shouldPull: () => false })
    .withEnvironment(options.env ?? {})
    .withTmpFs(spec.bootsSystemd ? { "/run": "exec,mode=755", "/run/lock": "" } : { "/run": "exec,mode=755" })
    .withAddedCapabilities(...spec.capabilities);
  if (spec.bootsSystemd) {
    container
      .withSecurityOpt("seccomp=unconfined", "apparmor=unconfined")
      .withBindMounts([...mounts, { source: "/sys/fs/cgroup", target: "/sys/fs/cgroup", mode: "rw" }]);
  } else {
    container.withBindMounts(mounts);
  }
  return container;
}

/** GenericContainer has no setter for the cgroup namespace, which systemd needs to be the host's. */
class HostContainer extends GenericContainer {
  constructor(image: string, hostCgroupNamespace: boolean) {
    super(image);
    if (hostCgroupNamespace) Object.assign(this.hostConfig, { CgroupnsMode: "host" });
  }
}
