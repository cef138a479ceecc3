import type { Paint } from "@tend/core";

/** Where a command writes; the CLI is the only place that prints. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  paint: Paint;
  /** stderr's painter (errors go there). */
  paintErr: Paint;
}
