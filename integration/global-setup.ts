/**
 * vitest globalSetup of the "integration" project: makes sure a Docker engine runs (starting
 * Debian's dockerd if needed) and builds every host image once, before any suite starts. Overlay
 * images (dinit, s6rc) are built only when TEND_IT_OVERLAY provides them; their suites skip,
 * saying why. A missing engine fails the run: in CI the suites that can run must run.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { HOST_IMAGES, ensureEngine, ensureImages, overlayStatus } from "@tend/testkit/harness";

const log = (line: string) => process.stderr.write(`[tend-it] ${line}\n`);

export default async function setup(): Promise<() => Promise<void>> {
  await ensureEngine({ log });
  const buildable = HOST_IMAGES.filter((name) => {
    const status = overlayStatus(name);
    if (!status.available) log(`not building the ${name} image: ${status.why}`);
    return status.available;
  });
  const started = Date.now();
  await ensureImages(buildable, { log });
  log(`images ready (${buildable.join(", ")}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // Every container of this run carries the label, so teardown removes what a crashed suite left.
  const run = randomUUID();
  process.env.TEND_IT_RUN = run;
  return async () => {
    const ids = execFileSync("docker", ["ps", "--all", "--quiet", "--filter", `label=tend-it.run=${run}`], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
    if (ids.length > 0) {
      log(`removing ${ids.length} container(s) the suites left behind: ${ids.join(" ")}`);
      execFileSync("docker", ["rm", "--force", ...ids], { stdio: "ignore" });
    }
  };
}
