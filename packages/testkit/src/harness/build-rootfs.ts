import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { debianMirror } from "./debian-mirror.js";
import { ROOTFS_RECIPE } from "./image-recipe.js";
import { runCommand } from "./run-command.js";

/**
 * Builds the Debian root filesystem every test image starts from — `debootstrap --variant=minbase
 * bookworm` from the mirror apt uses here — and imports it as `tag` (no registry is reachable).
 */
export async function buildRootfs(tag: string, log: (line: string) => void): Promise<void> {
  if (!existsSync("/usr/sbin/debootstrap")) {
    throw new Error("debootstrap is not installed: run .ci/install-docker.sh (it installs docker.io and debootstrap)");
  }
  const mirror = debianMirror(ROOTFS_RECIPE.suite);
  const target = await mkdtemp(join(tmpdir(), "tend-it-rootfs-"));
  try {
    log(`debootstrap --variant=${ROOTFS_RECIPE.variant} ${ROOTFS_RECIPE.suite} from ${mirror}`);
    await runCommand(["debootstrap", `--variant=${ROOTFS_RECIPE.variant}`, ROOTFS_RECIPE.suite, target, mirror]);
    log(`docker import -> ${tag}`);
    await importTree(target, tag);
  } finally {
    await rm(target, { recursive: true, force: true });
  }
}

/** `tar -C dir -c . | docker import - tag`. */
async function importTree(dir: string, tag: string): Promise<void> {
  const tar = spawn("tar", ["-C", dir, "-c", "."], { stdio: ["ignore", "pipe", "pipe"] });
  const docker = spawn("docker", ["import", "-", tag], { stdio: ["pipe", "ignore", "pipe"] });
  // A docker import that fails early closes its input: its exit code below says so, not an EPIPE.
  docker.stdin.on("error", () => undefined);
  tar.stdout.pipe(docker.stdin);
  const errors: string[] = [];
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((resolve, reject) => {
      child.stderr?.on("data", (chunk: Buffer) => errors.push(chunk.toString()));
      child.on("error", reject);
      child.on("close", resolve);
    });
  const [tarCode, dockerCode] = await Promise.all([exited(tar), exited(docker)]);
  if (tarCode !== 0 || dockerCode !== 0) {
    throw new Error(`importing ${dir} as ${tag} failed (tar ${tarCode}, docker import ${dockerCode}):\n${errors.join("")}`);
  }
}
