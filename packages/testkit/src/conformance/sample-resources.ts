import { validateSpec, type Resource, type ResourceType } from "@tend/core";

/**
 * Resources of the given types in the shapes the seeds use (a bare command and a full path, env,
 * each restart policy, `after` another service, a user service, schedules), `count` of each
 * shape's kind, valid by the model. Providers skip what they cannot express.
 */
export function sampleResources(types: readonly ResourceType[], count = 1): Resource[] {
  const raw: unknown[] = [];
  for (let i = 0; i < count; i += 1) {
    if (types.includes("service")) {
      raw.push(
        { type: "service", name: `web${i}`, exec: `/opt/web/bin/server --port ${8080 + i}`, restart: "on_failure", env: { RUST_LOG: "info" } },
        { type: "service", name: `worker${i}`, exec: `worker --queue "jobs ${i}"`, restart: "always", after: [`web${i}`] },
        { type: "service", name: `once${i}`, exec: `/opt/once/bin/run ${i}`, desired: { state: "stopped", enabled: true } },
        { type: "service", name: `sync${i}`, exec: "syncthing serve --no-browser", user: true, restart: "always" },
      );
    }
    if (types.includes("timer")) {
      raw.push(
        { type: "timer", name: `backup${i}`, exec: `/opt/backup/bin/run --id ${i}`, schedule: "30 2 * * *" },
        { type: "timer", name: `gc${i}`, exec: "/usr/local/bin/gc --older-than 14d", schedule: "@weekly" },
      );
    }
    if (types.includes("package")) {
      raw.push({ type: "package", name: `tool${i}` }, { type: "package", name: `lib${i}`, version: `1.${i}-1` }, { type: "package", name: `old${i}`, state: "absent" });
    }
  }
  return validateSpec(raw);
}
