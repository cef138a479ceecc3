import type { RenderContext, Resource, Service } from "@tend/core/contract";

/**
 * What plan points out about a service's `launchd` hatch: a key that replaces one tend generated
 * from another field (the seed: hatch keys are merged over tend's, whole values), so that field
 * no longer has its effect; `Program`, which makes launchd run another program than `exec`
 * names; and `AbandonProcessGroup`, which keeps launchd from ending what the job started.
 */
export function hatchWarnings(resource: Resource, _ctx?: RenderContext): string[] {
  if (resource.type !== "service" || resource.exec === undefined || !resource.launchd) return [];
  const generated = generatedFrom(resource);
  const warnings: string[] = [];
  for (const key of Object.keys(resource.launchd)) {
    const field = generated.get(key);
    if (field) warnings.push(`\`launchd.${key}\` replaces the ${key} tend generated from \`${field}\`; launchd gets only the hatch's value`);
  }
  if (resource.launchd.Program !== undefined) {
    warnings.push("`launchd.Program` makes launchd execute that program with ProgramArguments (from `exec`) as its argv, so the process launchd runs and signals is not the one `exec` names");
  }
  if (resource.launchd.AbandonProcessGroup === true) {
    warnings.push(
      "`launchd.AbandonProcessGroup` = true stops launchd from ending the job's process group when the job exits: what `exec` starts besides the program (a pipeline's other commands, children it leaves behind) survives stop, restart and removal",
    );
  }
  return warnings;
}

/** The keys servicePlist writes from spec fields, with the field each comes from. */
function generatedFrom(service: Service): Map<string, string> {
  const found = new Map<string, string>([["ProgramArguments", "exec"]]);
  if (Object.keys(service.env ?? {}).length > 0) found.set("EnvironmentVariables", "env");
  if ((service.restart ?? "no") !== "no") found.set("KeepAlive", "restart");
  return found;
}
