import { describe, expect, it } from "vitest";
import { SIGNALS, ServiceSchema, type Service } from "@tend/core";
import { checkService } from "./check-service.js";
import { SIGNAL_FLAGS } from "./signal-flags.js";

const service = (fields: Omit<Service, "type">) => ServiceSchema.parse({ type: "service", ...fields });

describe("checkService", () => {
  it("accepts network, targets (the core's error) and other services in after", () => {
    expect(checkService(service({ name: "web", exec: "/bin/web", after: ["network", "db", "graphical.target"] }))).toEqual([]);
  });

  it("refuses after entries that cannot be a dependencies.d file name", () => {
    const found = checkService(service({ name: "web", exec: "/bin/web", after: ["../x", "a b", "web"] }));
    expect(found.map((e) => e.message)).toEqual([
      "service:web has an invalid `after`: `../x` is not a service name (letters, digits and `_ . - @`)",
      "service:web has an invalid `after`: `a b` is not a service name (letters, digits and `_ . - @`)",
      "service:web has an invalid `after`: `web` is the service itself",
    ]);
  });

  it("accepts every reloadSignal tend knows: s6-svc can send each", () => {
    for (const signal of SIGNALS) {
      expect(checkService(service({ name: "web", exec: "/bin/web", reloadSignal: signal }))).toEqual([]);
    }
    expect(Object.keys(SIGNAL_FLAGS).sort()).toEqual([...SIGNALS].sort());
  });

  it("maps signals to s6-svc's options (s6-svc(8))", () => {
    expect(SIGNAL_FLAGS).toEqual({ HUP: "-h", INT: "-i", QUIT: "-q", USR1: "-1", USR2: "-2", TERM: "-t", WINCH: "-y", ALRM: "-a", CONT: "-c" });
  });
});
