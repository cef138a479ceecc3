import { MANAGED_HEADER, type Artifact, type RenderContext, type Resource } from "@tend/core/contract";
import { jobPath } from "./launchd-job.js";
import { serializePlist, type PlistDict } from "./serialize-plist.js";
import { servicePlist } from "./service-plist.js";
import { timerPlist } from "./timer-plist.js";

type JobResource = Extract<Resource, { type: "service" | "timer" }>;

/** The plist dictionary a service or timer becomes. */
export function jobPlist(resource: JobResource): PlistDict {
  return resource.type === "service" ? servicePlist(resource) : timerPlist(resource);
}

/** The managed header as plist text: `# ` is a comment marker plists do not have. */
const MANAGED_COMMENT = MANAGED_HEADER.replace(/^# /, "");

/**
 * The one artifact of a launchd job: its plist, with tend's header as an XML comment on its third
 * line (after the XML declaration and DOCTYPE), so that after a lost state a plist tend wrote is
 * an orphan, not an admin's file. A LaunchDaemon must be root:wheel and not group- or
 * world-writable, or launchctl refuses it ("Path had bad ownership/permissions"); a LaunchAgent
 * belongs to its user (the core's default in a user scope).
 */
/** The bytes of a job's plist, as tend writes it. */
export function plistContent(resource: Extract<Resource, { type: "service" | "timer" }>): string {
  return serializePlist(jobPlist(resource), { comment: MANAGED_COMMENT });
}

export function renderJob(resource: Resource, ctx: RenderContext): Artifact[] {
  if (resource.type === "file" || resource.type === "package") return [];
  const content = plistContent(resource);
  const artifact: Artifact = { path: jobPath(resource, ctx.scope, ctx.host), content, mode: 0o644 };
  if (!resource.user) {
    artifact.owner = "root";
    artifact.group = "wheel";
  }
  return [artifact];
}
