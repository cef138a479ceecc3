import type { Artifact, RenderContext, Resource } from "@tend/core/contract";
import { jobPath } from "./launchd-job.js";
import { serializePlist, type PlistDict } from "./serialize-plist.js";
import { servicePlist } from "./service-plist.js";
import { timerPlist } from "./timer-plist.js";

type JobResource = Extract<Resource, { type: "service" | "timer" }>;

/** The plist dictionary a service or timer becomes. */
export function jobPlist(resource: JobResource): PlistDict {
  return resource.type === "service" ? servicePlist(resource) : timerPlist(resource);
}

/**
 * The one artifact of a launchd job: its plist. A LaunchDaemon must be root:wheel and not group-
 * or world-writable, or launchctl refuses it ("Path had bad ownership/permissions"); a LaunchAgent
 * belongs to its user (the core's default in a user scope).
 */
export function renderJob(resource: Resource, ctx: RenderContext): Artifact[] {
  if (resource.type === "file" || resource.type === "package") return [];
  const artifact: Artifact = { path: jobPath(resource, ctx.scope, ctx.host), content: serializePlist(jobPlist(resource)), mode: 0o644 };
  if (!resource.user) {
    artifact.owner = "root";
    artifact.group = "wheel";
  }
  return [artifact];
}
