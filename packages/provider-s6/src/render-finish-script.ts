import { MANAGED_HEADER, type Service } from "@tend/core/contract";

/**
 * The longrun's `finish` script for the seed's restart table, or undefined for `"always"` (the
 * s6 default: s6-supervise restarts the program whenever it exits). s6-supervise runs `finish`
 * with the exit code as `$1` (256 when a signal killed the program); exit code 125 tells it not
 * to restart the service.
 */
export function renderFinishScript(service: Service): string | undefined {
  switch (service.restart ?? "no") {
    case "always":
      return undefined;
    case "on_failure":
      return ["#!/bin/sh", MANAGED_HEADER, '[ "$1" = 0 ] && exit 125', "exit 0", ""].join("\n");
    case "no":
      return ["#!/bin/sh", MANAGED_HEADER, "exit 125", ""].join("\n");
  }
}
