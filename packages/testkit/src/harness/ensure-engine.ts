import { spawn } from "node:child_process";
import { existsSync, openSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { lastLines, runCommand } from "./run-command.js";

/**
 * How the harness starts Debian's engine when none answers: no bridge and no iptables rules, since
 * test containers run with `--network none` and image builds with `--network host`. Keep in step
 * with .ci/install-docker.sh, which does the same for CI.
 */
export const DOCKERD_ARGS = ["--bridge=none", "--iptables=false", "--ip-masq=false"] as const;

export interface EnsureEngineOptions {
  /** Where dockerd's output goes. Default /tmp/dockerd.log. */
  logFile?: string;
  /** How long to wait for a started engine to answer. Default 60 s. */
  timeoutMs?: number;
  log?: (line: string) => void;
}

/**
 * Makes sure a Docker engine answers `docker info`, starting `dockerd` in the background when none
 * does. Throws (never skips) when that is impossible: no docker CLI, no dockerd, not root, or an
 * engine that does not come up in time — the error says what to run.
 */
export async function ensureEngine(options: EnsureEngineOptions = {}): Promise<void> {
  if (await engineAnswers()) return;
  const logFile = options.logFile ?? "/tmp/dockerd.log";
  const dockerd = ["/usr/sbin/dockerd", "/usr/bin/dockerd"].find((path) => existsSync(path));
  if (dockerd === undefined || !(await commandExists("docker"))) {
    throw new Error(
      "No Docker engine answers and Debian's docker.io is not installed: run .ci/install-docker.sh " +
        "(it installs docker.io and debootstrap and starts the engine).",
    );
  }
  if (process.getuid?.() !== 0) {
    throw new Error("No Docker engine answers; starting one needs root: run `sudo .ci/install-docker.sh`.");
  }
  options.log?.(`starting ${dockerd} ${DOCKERD_ARGS.join(" ")} (log: ${logFile})`);
  const out = openSync(logFile, "a");
  const child = spawn(dockerd, [...DOCKERD_ARGS], { detached: true, stdio: ["ignore", out, out] });
  child.unref();
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (await engineAnswers()) return;
    await sleep(500);
  }
  const tail = existsSync(logFile) ? lastLines(readFileSync(logFile, "utf8"), 30) : "(no log)";
  throw new Error(`dockerd did not answer \`docker info\` within ${(options.timeoutMs ?? 60_000) / 1000} s; ${logFile} ends with:\n${tail}`);
}

async function engineAnswers(): Promise<boolean> {
  try {
    const info = await runCommand(["docker", "info", "--format", "{{.ServerVersion}}"], { okCodes: "any" });
    return info.exitCode === 0 && info.stdout.trim() !== "";
  } catch {
    return false;
  }
}

async function commandExists(name: string): Promise<boolean> {
  try {
    await runCommand(["sh", "-c", `command -v ${name}`]);
    return true;
  } catch {
    return false;
  }
}
