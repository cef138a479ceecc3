import { setTimeout as sleep } from "node:timers/promises";
import type { ContainerHost } from "./container-host.js";
import { runCommand } from "./run-command.js";

/** Polls a readiness script until it exits 0; gives up at once if the container is gone (PID 1 exited). */
export async function waitForBoot(host: ContainerHost, ready: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const exitCode = await host.exec(["/bin/sh", "-c", ready], { timeoutMs: 30_000 }).then((r) => r.exitCode, () => -1);
    if (exitCode === 0) return;
    const state = await runCommand(["docker", "inspect", "--format", "{{.State.Status}}", host.id], { okCodes: "any" });
    if (state.stdout.trim() !== "running") {
      throw new Error(`the ${host.name} host stopped while booting (container ${state.stdout.trim() || "gone"})`);
    }
    if (Date.now() > deadline) throw new Error(`the ${host.name} init did not finish booting within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}
