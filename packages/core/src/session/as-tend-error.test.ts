import { describe, expect, it } from "vitest";
import { errors } from "../errors/catalogue.js";
import { TendError, TendErrors } from "../errors/tend-error.js";
import { formatError } from "../output/format-error.js";
import { asTendError } from "./session.js";

describe("asTendError", () => {
  it("gives each resource its own copy of one failure a provider pinned on all of them", () => {
    const shared = errors.commandFailed(["s6-rc-compile", "/db", "/sv"], undefined, "killed by SIGSEGV", { hint: "more stack" });
    const stamped = ["service:a", "service:b", "service:c"].map((key) => asTendError(shared, key, "s6"));
    expect(stamped.map((e) => e.location.resource)).toEqual(["service:a", "service:b", "service:c"]);
    for (const error of stamped) {
      expect(TendError.isInstance(error)).toBe(true);
      expect(error).toBeInstanceOf(TendError);
      expect([error.code, error.message, error.hint, error.location.provider]).toEqual(["TEND_COMMAND_FAILED", shared.message, "more stack", "s6"]);
    }
    expect(formatError(new TendErrors(stamped))).toContain("at service:a, service:b, service:c, provider s6");
  });

  it("keeps a group's errors and class in the copy", () => {
    const group = new TendErrors([errors.spec("one"), errors.spec("two")]);
    asTendError(group, "service:a", undefined);
    const copy = asTendError(group, "service:b", undefined) as TendErrors;
    expect(copy).toBeInstanceOf(TendErrors);
    expect(copy.errors.map((e) => e.message)).toEqual(["one", "two"]);
    expect([group.location.resource, copy.location.resource]).toEqual(["service:a", "service:b"]);
  });
});
