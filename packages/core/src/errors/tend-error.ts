import type { TendErrorCode } from "./error-codes.js";

const brand = Symbol.for("tend.error");

/** Where an error points: the spec file, the resource and the field, when known. */
export interface ErrorLocation {
  file?: string;
  line?: number;
  resource?: string;
  field?: string;
  provider?: string;
}

export interface TendErrorOptions extends ErrorLocation {
  /** What to do about it, printed under the message. */
  hint?: string;
  cause?: unknown;
}

/**
 * The one error type tend raises on purpose. `code` is permanent (documented in the README),
 * `message` says what happened, `hint` what to do. Recognised across package copies through a
 * `Symbol.for` brand, so a provider built against another copy of @tend/core still matches.
 */
export class TendError extends Error {
  readonly [brand] = true;
  readonly code: TendErrorCode;
  readonly hint: string | undefined;
  location: ErrorLocation;

  constructor(code: TendErrorCode, message: string, options: TendErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "TendError";
    this.code = code;
    this.hint = options.hint;
    const { hint: _hint, cause: _cause, ...location } = options;
    this.location = location;
  }

  static isInstance(value: unknown): value is TendError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }

  /** Fills in location fields that are not set yet (core stamps provider and resource). */
  at(location: ErrorLocation): this {
    for (const [key, value] of Object.entries(location) as [keyof ErrorLocation, never][]) {
      if (this.location[key] === undefined && value !== undefined) this.location[key] = value;
    }
    return this;
  }
}

/** Several errors found in one pass (validation reports all of them, not just the first). */
export class TendErrors extends TendError {
  readonly errors: TendError[];
  constructor(errors: TendError[]) {
    super(errors[0]?.code ?? "TEND_ERRORS", errors.map((e) => e.message).join("\n"));
    this.errors = errors;
  }
}
