import { describe, expect, it } from "vitest";
import { checkService } from "./check-service.js";

describe("checkService", () => {
  it("accepts what dinit can take", () => {
    expect(checkService({ type: "service", name: "web", exec: "/bin/web", after: ["network", "db", "graphical.target"] })).toEqual([]);
    expect(checkService({ type: "service", name: "agetty@tty1" })).toEqual([]);
  });

  it("refuses `@` in a service tend writes, which dinit reads as a service argument", () => {
    expect(checkService({ type: "service", name: "worker@1", exec: "/bin/worker" }).map((e) => e.message)).toEqual([
      "service:worker@1 has an invalid `name`: dinit reads `tend-worker@1` as the service `tend-worker` started with an argument, so a service tend writes cannot hold `@` on dinit",
    ]);
  });

  it("refuses after entries that cannot be a dependency name", () => {
    expect(checkService({ type: "service", name: "web", exec: "/bin/web", after: ["db server"] }).map((e) => e.message)).toEqual([
      "service:web has an invalid `after`: `db server` is neither `network` nor the name of a tend service, and dinit writes each entry as `depends-on = tend-<name>`",
    ]);
  });
});
