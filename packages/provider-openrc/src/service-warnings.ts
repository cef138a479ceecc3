import { shellStaysInFront, type Resource } from "@tend/core/contract";
import { supervisionOf } from "./supervision.js";

/**
 * What plan points out about a service OpenRC runs, though not quite as written: a supervised
 * exec that keeps /bin/sh in front of the program (a pipeline). Stop, restart and removal end its
 * whole process group, but when the shell alone dies supervise-daemon starts the service again
 * without ending what the shell started; without cgroups nothing else can.
 */
export function serviceWarnings(resource: Resource): string[] {
  if (resource.type !== "service" || resource.exec === undefined || supervisionOf(resource) !== "supervise-daemon") return [];
  if (!shellStaysInFront(resource.exec)) return [];
  return [
    "its exec keeps /bin/sh in front of the program (a pipeline, or a command after which the script goes on): if that shell alone dies, supervise-daemon starts the service again while the processes it started keep running; stop, restart and removal end them all",
  ];
}
