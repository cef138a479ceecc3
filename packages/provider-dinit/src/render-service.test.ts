import { renderContext } from "@tend/testkit";
import type { Service } from "@tend/core";
import { describe, expect, it } from "vitest";
import { renderService } from "./render-service.js";

const system = renderContext({ init: "dinit" });
const user = renderContext({ init: "dinit", scope: "user" });

function service(fields: Omit<Service, "type">): Service {
  return { type: "service", ...fields };
}

describe("renderService", () => {
  it("writes the seed's web service (env, on_failure) to /etc/dinit.d", async () => {
    const [artifact, ...rest] = renderService(
      service({ name: "web", exec: "/opt/web/bin/server --port 8080", restart: "on_failure", env: { RUST_LOG: "info" } }),
      system,
    );
    expect(rest).toEqual([]);
    expect(artifact).toMatchObject({ path: "/etc/dinit.d/tend-web", mode: 0o644 });
    await expect(artifact!.content).toMatchFileSnapshot("./__golden__/tend-web");
  });

  it("always writes restart, since dinit's built-in default is a build option", async () => {
    const [artifact] = renderService(service({ name: "once", exec: "/usr/local/bin/once" }), system);
    await expect(artifact!.content).toMatchFileSnapshot("./__golden__/tend-once");
  });

  it("orders after network and other tend services with depends-on", async () => {
    const [artifact] = renderService(
      service({ name: "api", exec: "/opt/api/bin/api", restart: "always", after: ["network", "db", "network"], description: "The API" }),
      system,
    );
    await expect(artifact!.content).toMatchFileSnapshot("./__golden__/tend-api");
  });

  it("runs shell syntax through /bin/sh -c with every $ doubled and quotes escaped", async () => {
    const [artifact] = renderService(
      service({
        name: "report",
        exec: `echo "load: $(cat /proc/loadavg)" >> /var/tmp/load # hourly`,
        env: { GREETING: 'say "hi" $USER', PATH: "/usr/bin:/bin" },
      }),
      system,
    );
    await expect(artifact!.content).toMatchFileSnapshot("./__golden__/tend-report");
  });

  it("writes a user service to ~/.config/dinit.d, ignoring network, with its log in ~/.local/state", async () => {
    const [artifact] = renderService(
      service({ name: "syncthing", exec: "syncthing serve --no-browser", user: true, restart: "always", after: ["network"] }),
      user,
    );
    expect(artifact).toMatchObject({ path: "/home/alice/.config/dinit.d/tend-syncthing", mode: 0o644 });
    await expect(artifact!.content).toMatchFileSnapshot("./__golden__/user-tend-syncthing");
  });

  it("writes nothing for a distro service", () => {
    expect(renderService(service({ name: "sshd" }), system)).toEqual([]);
  });

  it("is pure: env order does not change the bytes", () => {
    const a = renderService(service({ name: "x", exec: "/bin/x", env: { A: "1", B: "2" } }), system);
    const b = renderService(service({ name: "x", exec: "/bin/x", env: { B: "2", A: "1" } }), system);
    expect(a).toEqual(b);
  });
});
