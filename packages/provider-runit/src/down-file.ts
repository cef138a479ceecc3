import { MANAGED_HEADER, type Service } from "@tend/core/contract";

/** The `down` file: runsv does not start the service when runsv itself starts (at boot). */
export const DOWN_FILE_CONTENT = `${MANAGED_HEADER}\n# desired.enabled is false: runsv supervises this service but does not start it at boot.\n`;

/** A transient `down` (see transient-down.ts): written after the core's writes, removed once runsv has seen it. */
export const TRANSIENT_DOWN_CONTENT = "# Written by tend while it adds this service stopped; removed once runsv has seen it.\n";

/** Whether the service's directory carries a `down` file tend wrote. */
export function rendersDownFile(service: Service): boolean {
  return service.exec !== undefined && service.desired?.enabled === false;
}
