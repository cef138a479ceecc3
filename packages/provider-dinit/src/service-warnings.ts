import { shellStaysInFront, type Resource } from "@tend/core/contract";

/**
 * What plan points out about a service dinit runs, though not quite as written: an exec that keeps
 * /bin/sh in front of the program (a pipeline). dinit starts each service in a session and
 * process group of its own and stops it by signalling that whole group, so stop, restart and
 * removal end every process of the pipeline. But when the shell alone dies, dinit only sees its
 * process end: it starts the service again (per `restart`) without signalling the group the dead
 * shell leaves behind, and without cgroups nothing else can tell those processes apart.
 */
export function serviceWarnings(resource: Resource): string[] {
  if (resource.type !== "service" || resource.exec === undefined || !shellStaysInFront(resource.exec)) return [];
  return [
    "its exec keeps /bin/sh in front of the program (a pipeline, or a command after which the script goes on): if that shell alone dies, dinit starts the service again while the processes it started keep running; stop, restart and removal end them all (dinit signals the service's whole process group)",
  ];
}
