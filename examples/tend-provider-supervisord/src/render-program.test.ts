import { build, expectGolden } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { autostartOf, renderProgram } from "./render-program.js";

const golden = (name: string) => new URL(`./__golden__/${name}.txt`, import.meta.url);

describe("renderProgram", () => {
  it("writes the seed's service as a program section with its restart policy and env", async () => {
    const web = build.service("web", { exec: "/opt/web/bin/server --port 8080", restart: "on_failure", env: { RUST_LOG: "info" }, description: "The web server" });
    await expectGolden(renderProgram(web), golden("web"));
  });

  it("maps each restart policy, and desired.enabled to autostart", async () => {
    await expectGolden(
      [
        ...renderProgram(build.service("never", { exec: "/opt/once/bin/run" })),
        ...renderProgram(build.service("always", { exec: "/opt/web/bin/server", restart: "always" })),
        ...renderProgram(build.service("parked", { exec: "/opt/web/bin/server", restart: "always", desired: { state: "stopped", enabled: false } })),
      ],
      golden("restart-and-autostart"),
    );
  });

  it("quotes arguments for shlex, keeps ; and # away from configparser's comments, and doubles %", async () => {
    const tricky = build.service("tricky", {
      exec: `/opt/demo/bin/demo tricky "" "daemon off;" 'it'"'"'s' "a #b" "100%" '$HOME' "back\\\\slash"`,
      env: { B: "it's $(id) `x` 100% back\\slash", A: "plain" },
    });
    await expectGolden(renderProgram(tricky), golden("quoting"));
  });

  it("runs a bare name through /usr/bin/env and real shell syntax through sh -c", async () => {
    await expectGolden(
      [...renderProgram(build.service("worker", { exec: `worker --queue "jobs 1"` })), ...renderProgram(build.service("pipe", { exec: "/opt/a | /opt/b" }))],
      golden("exec-forms"),
    );
  });

  it("passes env through /usr/bin/env when environment= cannot hold a value", async () => {
    const greeting = build.service("greet", { exec: "/opt/demo/bin/demo greet", env: { GREETING: `it's "q" ;x`, PLAIN: "yes" } });
    await expectGolden(renderProgram(greeting), golden("env-through-env"));
  });

  it("is pure: the same service, the same bytes, whatever the env's order", () => {
    const a = renderProgram(build.service("web", { exec: "/opt/web", env: { A: "1", B: "2" } }));
    const b = renderProgram(build.service("web", { exec: "/opt/web", env: { B: "2", A: "1" } }));
    expect(b).toEqual(a);
  });
});

describe("autostartOf", () => {
  it("reads autostart= as supervisord does, true when absent", () => {
    expect(autostartOf("[program:x]\nautostart=false\n")).toBe(false);
    expect(autostartOf("[program:x]\nautostart = true\n")).toBe(true);
    expect(autostartOf("[program:x]\ncommand=/bin/true\n")).toBe(true);
  });
});
