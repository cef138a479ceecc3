// tend against its floors inside the test hosts (packages/testkit's containers: systemd booted
// as PID 1, runsvdir as PID 1): fresh apply, apply changing one service and a no-op plan, each
// beside the floor script of bench/floors/. Returns rows for bench/run.mjs.
import { startHost } from "@tend/testkit/harness";

export const CONTAINER_INITS = ["systemd", "runit"];

export async function containers({ short = false, inits = CONTAINER_INITS } = {}) {
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= "true";
  const sizes = short ? [20] : [20, 200];
  const runs = short ? 3 : 5;
  const rows = [];
  for (const init of inits) {
    for (const n of sizes) {
      // A fresh host per size: each fresh apply starts from a clean init.
      const host = await startHost(init);
      try {
        const result = await host.exec(["/usr/local/bin/node", "/opt/tend/bench/in-host.mjs", init, String(n), String(runs)]);
        if (result.exitCode !== 0) throw new Error(`bench in the ${init} host failed: ${result.stderr}`);
        for (const row of JSON.parse(result.stdout.trim().split("\n").pop())) {
          // The issue's goal for start-up: a no-op plan within 1.5x of node plus the init's queries.
          const goal = row.name.includes("no-op plan") ? 1.5 : undefined;
          rows.push({ name: row.name, ms: row.ms, ratio: row.ms / row.floorMs, of: `floor ${row.floorMs.toFixed(0)} ms${row.note ? `; ${row.note}` : ""}`, ...(goal ? { goal } : {}) });
        }
      } finally {
        await host.stop();
      }
    }
  }
  return rows;
}
