import type { Artifact, Service } from "@tend/core";
import { renderContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { renderService } from "./render-service.js";

const system = renderContext({ init: "runit" });
const alice = renderContext({ init: "runit", scope: "user" });
const service = (name: string, fields: Omit<Service, "type" | "name"> = {}): Service => ({ type: "service", name, ...fields });

/** Every artifact as it would land: kind, path, mode and bytes, for a reviewable golden file. */
function listing(artifacts: Artifact[]): string {
  return artifacts
    .map((a) => {
      const mode = a.mode === undefined ? "" : ` ${a.mode.toString(8).padStart(4, "0")}`;
      if (a.store === "directory") return `== directory ${a.path}${mode}${a.ephemeral ? ` (runit creates: ${a.ephemeral.join(", ")})` : ""}\n`;
      if (a.store === "symlink") return `== symlink ${a.path} -> ${a.content}\n`;
      return `== file ${a.path}${mode}\n${a.content}`;
    })
    .join("\n");
}

const golden = (name: string) => `./__golden__/${name}.txt`;

describe("renderService goldens", () => {
  it("the seed's web service: on_failure, env (system)", async () => {
    const web = service("web", { exec: "/opt/web/bin/server --port 8080", restart: "on_failure", env: { RUST_LOG: "info" } });
    await expect(listing(renderService(web, system))).toMatchFileSnapshot(golden("seed-web"));
  });

  it("the seed's syncthing: a bare command, user service, always, after network", async () => {
    const syncthing = service("syncthing", { exec: "syncthing serve --no-browser", user: true, restart: "always", after: ["network"] });
    await expect(listing(renderService(syncthing, alice))).toMatchFileSnapshot(golden("seed-syncthing-user"));
  });

  it("restart defaults to no: finish runs sv down", async () => {
    await expect(listing(renderService(service("once", { exec: "/usr/local/bin/migrate" }), system))).toMatchFileSnapshot(golden("restart-no"));
  });

  it("restart always: a finish that only ends the program's process group", async () => {
    await expect(listing(renderService(service("web", { exec: "/opt/web/bin/server", restart: "always" }), system))).toMatchFileSnapshot(golden("restart-always"));
  });

  it("after another tend service, with restart no (finish tells waiting from ending)", async () => {
    const api = service("api", { exec: "/opt/api/bin/api", after: ["db", "network", "cache", "db"] });
    await expect(listing(renderService(api, system))).toMatchFileSnapshot(golden("after-restart-no"));
  });

  it("after another tend service, with on_failure", async () => {
    const api = service("api", { exec: "/opt/api/bin/api", restart: "on_failure", after: ["db"] });
    await expect(listing(renderService(api, system))).toMatchFileSnapshot(golden("after-on-failure"));
  });

  it("after, for a user service: the dependency's path in the same home", async () => {
    const bar = service("bar", { exec: "/usr/bin/waybar", user: true, restart: "always", after: ["sway"] });
    await expect(listing(renderService(bar, alice))).toMatchFileSnapshot(golden("after-user"));
  });

  it("env values with shell metacharacters, single-quoted", async () => {
    const env = { PLAIN: "info", SPACES: "a b  c", DOLLAR: "$HOME $(id) `id`", QUOTES: `it's "quoted"`, BACKSLASH: "C:\\", EMPTY: "", GLOB: "*.log ~ !x" };
    await expect(listing(renderService(service("env", { exec: "/bin/env", restart: "always", env }), system))).toMatchFileSnapshot(golden("env-quoting"));
  });

  it("exec with shell syntax goes through /bin/sh -c", async () => {
    const exec = "restic backup ~/Documents 2>&1 | tee -a \"/var/log/it's.log\"";
    await expect(listing(renderService(service("shell", { exec, restart: "always" }), system))).toMatchFileSnapshot(golden("exec-shell"));
  });

  it("desired enabled false: a down file, still linked so sv can start it", async () => {
    const off = service("off", { exec: "/opt/off/bin/off", restart: "always", desired: { state: "running", enabled: false } });
    await expect(listing(renderService(off, system))).toMatchFileSnapshot(golden("enabled-false"));
  });

  it("a distro service: only the link to /etc/sv/<name>", async () => {
    await expect(listing(renderService(service("sshd"), system))).toMatchFileSnapshot(golden("distro"));
  });
});

describe("renderService rules", () => {
  const base = service("web", { exec: "/opt/web/bin/server", restart: "always" });

  it("has no place for description", () => {
    expect(renderService({ ...base, description: "The web server" }, system)).toEqual(renderService(base, system));
  });

  it("ignores fields that act at apply time only", () => {
    const extra = { ...base, reloadSignal: "HUP" as const, restartOn: ["file:conf"], reloadOn: ["file:other"], requires: ["file:x"], verify: { settle: 5 } };
    expect(renderService(extra, system)).toEqual(renderService(base, system));
  });

  it("desired stopped but enabled renders like running: the down file is only for enabled false", () => {
    expect(renderService({ ...base, desired: { state: "stopped", enabled: true } }, system)).toEqual(renderService(base, system));
  });

  it("a distro service that is not to be enabled has no artifacts", () => {
    expect(renderService(service("sshd", { desired: { state: "stopped", enabled: false } }), system)).toEqual([]);
  });

  it("writes the link last, after everything it points at", () => {
    const artifacts = renderService(base, system);
    expect(artifacts.at(-1)).toEqual({ store: "symlink", path: "/etc/runit/runsvdir/default/tend-web", content: "/etc/sv/tend-web" });
    expect(artifacts[0]).toMatchObject({ store: "directory", path: "/etc/sv/tend-web", ephemeral: ["supervise"] });
  });

  it("is pure: same input, same bytes", () => {
    expect(renderService(base, system)).toEqual(renderService(structuredClone(base), system));
  });
});
