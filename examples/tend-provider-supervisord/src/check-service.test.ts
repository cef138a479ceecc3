import { build } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { checkService } from "./check-service.js";

describe("checkService", () => {
  it("accepts what supervisord runs as written", () => {
    expect(checkService(build.service("web", { exec: "/opt/a=b/web", env: { A: "it's" } }))).toEqual([]);
    expect(checkService(build.service("web", { exec: "/opt/web", env: { A: 'say "hi"' } }))).toEqual([]);
  });

  it("refuses a program path with = when its env goes through /usr/bin/env", () => {
    const [problem] = checkService(build.service("web", { exec: "/opt/a=b/web", env: { A: 'say "hi"' } }));
    expect(problem?.location.field).toBe("exec");
    expect(problem?.message).toContain("`/opt/a=b/web` holds `=`");
  });
});
