import type { Paint } from "@tend/core/runtime";
import type { ProgressLine } from "./output/progress.js";

/** One problem, as `--json` reports it. */
export interface Diagnostic {
  code: string;
  severity: "error" | "warning";
  message: string;
  location?: { file?: string; line?: number; resource?: string; field?: string; provider?: string };
  hint?: string;
}

/** Where a command writes; the CLI is the only place that prints. */
export interface CliIo {
  /** Human output on stdout (nothing in `--json` mode: the document carries the result). */
  out(text: string): void;
  /** Human output on stderr (nothing in `--json` mode). */
  err(text: string): void;
  paint: Paint;
  /** stderr's painter (errors go there). */
  paintErr: Paint;
  /** Whether stdout carries one JSON document (`--json`) or a stream of events (`--json-stream`). */
  json: boolean;
  /** An error met: printed on stderr, or a diagnostic in the JSON document. The command then exits non-zero. */
  report(error: unknown): void;
  /** A warning: printed, or a diagnostic of severity warning. */
  warn(diagnostic: Omit<Diagnostic, "severity">): void;
  /** The command's result, for the JSON document. */
  result(value: unknown): void;
  /** `--json-stream`: writes one event line now (no-op otherwise). */
  event(value: Record<string, unknown>): void;
  /** A live progress line, on a terminal only. */
  progress: ProgressLine | undefined;
}
