import type { TendError } from "@tend/core/runtime";
import type { Diagnostic } from "../cli-io.js";

/** An error as JSON diagnostics: one per TendError (a TendErrors gives each), anything else TEND_INTERNAL. */
export function diagnosticsOf(error: unknown, isTendError: (value: unknown) => value is TendError): Diagnostic[] {
  if (isTendError(error)) {
    const inner = (error as TendError & { errors?: TendError[] }).errors;
    if (Array.isArray(inner)) return inner.flatMap((e) => diagnosticsOf(e, isTendError));
    const location = Object.fromEntries(Object.entries(error.location).filter(([, v]) => v !== undefined));
    return [{ code: error.code, severity: "error", message: error.message, ...(Object.keys(location).length > 0 ? { location } : {}), ...(error.hint ? { hint: error.hint } : {}) }];
  }
  const message = error instanceof Error ? error.message : String(error);
  return [{ code: "TEND_INTERNAL", severity: "error", message, hint: "this is a bug in tend; please report it with the command you ran" }];
}
