import { readFile } from "node:fs/promises";
import { service, ServiceSchema } from "@tend/core";
import { renderContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { renderArtifacts } from "./render-artifacts.js";
import { renderServiceUnit } from "./render-service-unit.js";

const parsed = (s: ReturnType<typeof service>) => ServiceSchema.parse(s) as ReturnType<typeof service> & { exec: string };

describe("renderServiceUnit: the seed's examples", () => {
  it("renders web with MemoryMax and StartLimitBurst byte for byte as the seed shows", async () => {
    const web = parsed(
      service("web", {
        exec: "/opt/web/bin/server --port 8080",
        restart: "on_failure",
        env: { RUST_LOG: "info" },
        systemd: { MemoryMax: "512M", unit: { StartLimitBurst: 3 } },
      }),
    );
    const text = renderServiceUnit(web);
    expect(text).toBe(await readFile(new URL("./__fixtures__/seed-web.service", import.meta.url), "utf8"));
    await expect(text).toMatchFileSnapshot("./__golden__/web.service");
  });

  it("renders a oneshot that counts as active afterwards", async () => {
    const setup = parsed(
      service("mount-data", {
        exec: "/usr/local/bin/mount-data",
        systemd: { Type: "oneshot", RemainAfterExit: true, unit: { Before: "systemd-user-sessions.service" } },
      }),
    );
    await expect(renderServiceUnit(setup)).toMatchFileSnapshot("./__golden__/oneshot-remain.service");
  });

  it("renders the waybar user service tied to the graphical session", async () => {
    const bar = parsed(
      service("bar", {
        exec: "waybar",
        user: true,
        restart: "always",
        after: ["graphical-session.target"],
        systemd: { install: { WantedBy: "graphical-session.target" } },
      }),
    );
    await expect(renderServiceUnit(bar)).toMatchFileSnapshot("./__golden__/bar.user.service");
  });

  it("renders the syncthing user service: After= without Wants= for network, default.target", async () => {
    const syncthing = parsed(service("syncthing", { exec: "syncthing serve --no-browser", user: true, restart: "always", after: ["network"] }));
    await expect(renderServiceUnit(syncthing)).toMatchFileSnapshot("./__golden__/syncthing.user.service");
  });
});

describe("renderServiceUnit: every field", () => {
  it("writes the name as Description when none is given, and no Restart= for restart no", () => {
    const text = renderServiceUnit(parsed(service("plain", { exec: "/bin/sleep infinity", restart: "no" })));
    expect(text).toContain("Description=plain\n");
    expect(text).not.toContain("Restart=");
    expect(text).not.toContain("Type=");
    expect(text).not.toContain("After=");
  });

  it("maps restart on_failure and always", () => {
    expect(renderServiceUnit(parsed(service("a", { exec: "/bin/a", restart: "on_failure" })))).toContain("\nRestart=on-failure\n");
    expect(renderServiceUnit(parsed(service("a", { exec: "/bin/a", restart: "always" })))).toContain("\nRestart=always\n");
  });

  it("orders a system unit after the network, another service and a target, wanting the network", async () => {
    const web = parsed(
      service("web", {
        exec: "/opt/web/bin/server --port 8080",
        description: "The web front end",
        after: ["network", "db", "remote-fs.target", "network"],
        restart: "on_failure",
        env: { RUST_LOG: "info", PORT: "8080" },
        reloadSignal: "HUP",
      }),
    );
    const text = renderServiceUnit(web);
    expect(text).toContain("After=network-online.target tend-db.service remote-fs.target\nWants=network-online.target\n");
    await expect(text).toMatchFileSnapshot("./__golden__/every-field.service");
  });

  it("runs a bare command through /usr/bin/env and shell syntax through /bin/sh -c", () => {
    expect(renderServiceUnit(parsed(service("a", { exec: "syncthing serve --no-browser" })))).toContain(
      "ExecStart=/usr/bin/env syncthing serve --no-browser\n",
    );
    expect(renderServiceUnit(parsed(service("a", { exec: "restic backup ~/Documents | tee /tmp/log" })))).toContain(
      'ExecStart=/bin/sh -c "restic backup ~/Documents | tee /tmp/log"\n',
    );
  });

  it("delivers reloadSignal through ExecReload=", () => {
    expect(renderServiceUnit(parsed(service("a", { exec: "/bin/a", reloadSignal: "USR1" })))).toContain("\nExecReload=/bin/kill -s USR1 $MAINPID\n");
  });

  it("escapes %, $, quotes and backslashes in values", () => {
    const text = renderServiceUnit(
      parsed(service("a", { exec: `date +%F > "/tmp/$USER day"`, description: "100% C:\\", env: { MSG: `say "hi" 5% \\o/ $HOME` } })),
    );
    expect(text).toContain('ExecStart=/bin/sh -c "exec date +%%F > \\"/tmp/$$USER day\\""\n');
    expect(text).toContain("Description=100%% C:\\ \n");
    expect(text).toContain('Environment="MSG=say \\"hi\\" 5%% \\\\o/ $HOME"\n');
  });
});

describe("renderServiceUnit: the systemd escape hatch", () => {
  it("replaces a generated directive in place, repeats lists, writes booleans and numbers", async () => {
    const text = renderServiceUnit(
      parsed(
        service("hatch", {
          exec: "/bin/a",
          restart: "always",
          env: { A: "1", B: "2" },
          systemd: {
            Restart: "on-abnormal",
            ExecStartPre: ["/bin/mkdir -p /run/a", "/bin/chmod 700 /run/a"],
            NoNewPrivileges: true,
            PrivateTmp: false,
            RestartSec: 5,
            unit: { Description: "overridden", After: ["a.service", "b.service"] },
            service: { Environment: "C=3" },
            install: { WantedBy: ["a.target", "b.target"], Alias: "hatch-alias.service" },
          },
        }),
      ),
    );
    expect(text).toContain("[Unit]\nDescription=overridden\nAfter=a.service\nAfter=b.service\n\n");
    expect(text).toContain("[Service]\nExecStart=/bin/a\nRestart=on-abnormal\nEnvironment=C=3\nExecStartPre=/bin/mkdir -p /run/a\n");
    expect(text).toContain("NoNewPrivileges=yes\nPrivateTmp=no\nRestartSec=5\n");
    expect(text).toContain("[Install]\nWantedBy=a.target\nWantedBy=b.target\nAlias=hatch-alias.service\n");
    await expect(text).toMatchFileSnapshot("./__golden__/hatch.service");
  });

  it("removes a generated directive set to an empty list", () => {
    const text = renderServiceUnit(parsed(service("a", { exec: "/bin/a", restart: "always", systemd: { Restart: [] } })));
    expect(text).not.toContain("Restart=");
  });
});

describe("renderArtifacts", () => {
  it("puts a system unit in /etc/systemd/system and a user unit in ~/.config/systemd/user", () => {
    const system = renderArtifacts(parsed(service("web", { exec: "/bin/web" })), renderContext({ init: "systemd" }));
    expect(system.map((a) => [a.path, a.mode])).toEqual([["/etc/systemd/system/tend-web.service", 0o644]]);
    const user = renderArtifacts(parsed(service("sync", { exec: "/bin/sync", user: true })), renderContext({ init: "systemd", scope: "user" }));
    expect(user.map((a) => a.path)).toEqual(["/home/alice/.config/systemd/user/tend-sync.service"]);
  });

  it("renders nothing for a unit the distro ships", () => {
    expect(renderArtifacts(ServiceSchema.parse(service("sshd")), renderContext({ init: "systemd" }))).toEqual([]);
    expect(renderArtifacts(ServiceSchema.parse(service("gdm", { displayManager: true })), renderContext({ init: "systemd" }))).toEqual([]);
  });
});
