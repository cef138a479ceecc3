import { describe, expect, it } from "vitest";
import { TendError, TendErrors } from "../errors/tend-error.js";
import { formatError } from "./format-error.js";

const failed = (resource: string, message = "`s6-rc-compile /etc/s6/db/x /etc/s6/sv` did not finish: no such program") =>
  new TendError("TEND_COMMAND_FAILED", message, { resource, provider: "s6", hint: "Install s6-rc" });

describe("formatError", () => {
  it("prints code, message, where and hint", () => {
    expect(formatError(failed("service:web"))).toBe(
      "error TEND_COMMAND_FAILED: `s6-rc-compile /etc/s6/db/x /etc/s6/sv` did not finish: no such program\n  at service:web, provider s6\n  hint Install s6-rc\n",
    );
  });

  it("prints errors that differ only in their resource once, naming five resources and how many more", () => {
    const wave = Array.from({ length: 10_000 }, (_, i) => failed(`service:svc${i}`));
    const text = formatError(new TendErrors([...wave, failed("service:other", "`sv up /etc/sv/tend-other` exited 1: fail")]));
    expect(text).toBe(
      [
        "error TEND_COMMAND_FAILED: `s6-rc-compile /etc/s6/db/x /etc/s6/sv` did not finish: no such program",
        "  at service:svc0, service:svc1, service:svc2, service:svc3, service:svc4 and 9,995 more, provider s6",
        "  hint Install s6-rc",
        "error TEND_COMMAND_FAILED: `sv up /etc/sv/tend-other` exited 1: fail",
        "  at service:other, provider s6",
        "  hint Install s6-rc",
        "",
      ].join("\n"),
    );
  });

  it("keeps errors apart when anything but the resource differs", () => {
    const text = formatError(new TendErrors([failed("service:a"), new TendError("TEND_COMMAND_FAILED", failed("x").message, { resource: "service:b", provider: "runit" })]));
    expect(text.match(/^error /gm)).toHaveLength(2);
    expect(text).toContain("at service:a, provider s6");
    expect(text).toContain("at service:b, provider runit");
  });
});
