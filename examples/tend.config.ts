// The bundled example: a web service with its config file, a worker ordered after it, a
// weekly clean-up timer and a user's sync client. One spec, every init.
import { defineConfig, file, service, timer } from "@tend/core";

export default defineConfig((host) => [
  file("web-config", {
    path: "/etc/web/config.toml",
    content: 'listen = "127.0.0.1:8080"\nlog = "info"\n',
  }),
  service("web", {
    exec: "/opt/web/bin/server --config /etc/web/config.toml",
    restart: "on_failure",
    env: { RUST_LOG: "info" },
    requires: ["file:web-config"],
    restartOn: ["file:web-config"],
    // Features only one init has go under that init's own field, set only on hosts that have it.
    ...(host.init === "systemd" ? { systemd: { MemoryMax: "512M", unit: { StartLimitBurst: 3 } } } : {}),
  }),
  service("worker", {
    exec: "/opt/web/bin/worker --queue default",
    restart: "always",
    after: ["web"],
    desired: { state: "running", enabled: true },
  }),
  timer("gc", { exec: "/opt/web/bin/gc --older-than 14d", schedule: "@weekly" }),
  // A user service: applied by `tend apply --user`; OpenRC and s6 have no user services.
  host.init !== "openrc" && host.init !== "s6" && service("syncthing", { exec: "syncthing serve --no-browser", user: true, restart: "always" }),
]);
