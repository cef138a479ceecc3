import { carriesManagedHeader, ServiceSchema, TimerSchema, type Service, type Timer } from "@tend/core";
import { renderContext } from "@tend/testkit";
import plist from "plist";
import { describe, expect, it } from "vitest";
import { renderJob } from "./render-job.js";

const system = renderContext({ init: "launchd" });
const user = renderContext({ init: "launchd", scope: "user" });
const service = (fields: Omit<Service, "type">) => ServiceSchema.parse({ type: "service", ...fields });
const timer = (fields: Omit<Timer, "type">) => TimerSchema.parse({ type: "timer", ...fields });

function only(resource: Service | Timer, ctx = resource.user ? user : system) {
  const artifacts = renderJob(resource, ctx);
  expect(artifacts).toHaveLength(1);
  return artifacts[0]!;
}

describe("services: the seed's examples", () => {
  it("syncthing: a user LaunchAgent, bare command through /usr/bin/env, KeepAlive = true, `after` ignored", async () => {
    const artifact = only(service({ name: "syncthing", exec: "syncthing serve --no-browser", user: true, restart: "always", after: ["network"] }));
    expect(artifact).toMatchObject({ path: "/home/alice/Library/LaunchAgents/tend.syncthing.plist", mode: 0o644 });
    expect(artifact.owner).toBeUndefined();
    expect(artifact.group).toBeUndefined();
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/syncthing.plist");
    expect(plist.parse(artifact.content)).toEqual({
      Label: "tend.syncthing",
      ProgramArguments: ["/usr/bin/env", "syncthing", "serve", "--no-browser"],
      RunAtLoad: true,
      KeepAlive: true,
    });
  });

  it("web: a LaunchDaemon (root:wheel 0644), EnvironmentVariables, KeepAlive with SuccessfulExit = false", async () => {
    const artifact = only(service({ name: "web", exec: "/opt/web/bin/server --port 8080", restart: "on_failure", env: { RUST_LOG: "info" } }));
    expect(artifact).toMatchObject({ path: "/Library/LaunchDaemons/tend.web.plist", mode: 0o644, owner: "root", group: "wheel" });
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/web.plist");
    expect(plist.parse(artifact.content)).toEqual({
      Label: "tend.web",
      ProgramArguments: ["/opt/web/bin/server", "--port", "8080"],
      EnvironmentVariables: { RUST_LOG: "info" },
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
    });
  });

  it("sync-notes: launchd = {...} keys merged in, integers as <integer>", async () => {
    const artifact = only(
      service({
        name: "sync-notes",
        exec: "/opt/tend/current/bin/notes-sync",
        user: true,
        launchd: { StartInterval: 300, StandardOutPath: "/tmp/notes-sync.log", ProcessType: "Background" },
      }),
    );
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/sync-notes.plist");
    expect(artifact.content).toContain("<key>StartInterval</key>\n\t<integer>300</integer>");
    expect(plist.parse(artifact.content)).toEqual({
      Label: "tend.sync-notes",
      ProgramArguments: ["/opt/tend/current/bin/notes-sync"],
      RunAtLoad: true,
      StartInterval: 300,
      StandardOutPath: "/tmp/notes-sync.log",
      ProcessType: "Background",
    });
  });

  it("login-notes: a login item, restart \"no\" gives RunAtLoad only", async () => {
    const artifact = only(service({ name: "login-notes", exec: "/usr/bin/open -g -j -a /Applications/Notes.app", user: true }));
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/login-notes.plist");
    expect(plist.parse(artifact.content)).toEqual({
      Label: "tend.login-notes",
      ProgramArguments: ["/usr/bin/open", "-g", "-j", "-a", "/Applications/Notes.app"],
      RunAtLoad: true,
    });
  });

  it("RunAtLoad = False, KeepAlive = False: loaded but idle until kickstart (hatch values replace tend's)", async () => {
    const artifact = only(service({ name: "idle", exec: "/usr/local/bin/job", restart: "always", launchd: { RunAtLoad: false, KeepAlive: false } }));
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/idle.plist");
    expect(plist.parse(artifact.content)).toEqual({ Label: "tend.idle", ProgramArguments: ["/usr/local/bin/job"], RunAtLoad: false, KeepAlive: false });
  });

  it("WatchPaths, ThrottleInterval, LimitLoadToSessionType and a nested KeepAlive: every JSON type to its plist type", async () => {
    const artifact = only(
      service({
        name: "watcher",
        exec: "/usr/local/bin/reindex",
        user: true,
        restart: "on_failure",
        launchd: {
          WatchPaths: ["/Users/alice/Documents", "/Users/alice/Desktop & more"],
          ThrottleInterval: 30,
          LimitLoadToSessionType: ["Aqua", "Background"],
          KeepAlive: { Crashed: true, PathState: { "/tmp/run-me": true } },
          Nice: -5,
          LowPriorityIO: true,
          ExitTimeOut: 2.5,
        },
      }),
    );
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/watcher.plist");
    expect(artifact.content).toContain("<key>ExitTimeOut</key>\n\t<real>2.5</real>");
    expect(plist.parse(artifact.content)).toEqual({
      Label: "tend.watcher",
      ProgramArguments: ["/usr/local/bin/reindex"],
      RunAtLoad: true,
      KeepAlive: { Crashed: true, PathState: { "/tmp/run-me": true } },
      WatchPaths: ["/Users/alice/Documents", "/Users/alice/Desktop & more"],
      ThrottleInterval: 30,
      LimitLoadToSessionType: ["Aqua", "Background"],
      Nice: -5,
      LowPriorityIO: true,
      ExitTimeOut: 2.5,
    });
  });
});

describe("the managed header", () => {
  it("every plist carries it as an XML comment on its third line, which core recognises and a plist parser skips", () => {
    for (const resource of [service({ name: "web", exec: "/opt/web" }), service({ name: "agent", exec: "/opt/agent", user: true }), timer({ name: "t", exec: "/bin/t", schedule: "@daily" })]) {
      const { content } = only(resource);
      expect(content.split("\n")[2]).toBe("<!-- Managed by tend. Edits are overwritten on the next apply. -->");
      expect(carriesManagedHeader(content)).toBe(true);
      expect(plist.parse(content)).toMatchObject({ Label: `tend.${resource.name}` });
    }
  });
});

describe("services: fields", () => {
  it("shell syntax runs through /bin/sh -c, escaped in the XML and intact after parsing", async () => {
    const exec = `tail -f "$HOME/log" | grep -v 'x<y' && echo done > /tmp/out`;
    const artifact = only(service({ name: "pipe", exec, env: { A: "1 & 2", B: "<é😀>" } }));
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/pipe.plist");
    expect(plist.parse(artifact.content)).toMatchObject({ ProgramArguments: ["/bin/sh", "-c", exec], EnvironmentVariables: { A: "1 & 2", B: "<é😀>" } });
  });

  it("ignores `after` (targets included) and `description`: same bytes as without them", () => {
    const plain = only(service({ name: "web", exec: "/opt/web/bin/server" }));
    const decorated = only(service({ name: "web", exec: "/opt/web/bin/server", after: ["network", "db", "graphical.target"], description: "The web server" }));
    expect(decorated.content).toBe(plain.content);
  });

  it("a launchd EnvironmentVariables replaces the generated one", () => {
    const artifact = only(service({ name: "web", exec: "/opt/web/bin/server", env: { A: "1" }, launchd: { EnvironmentVariables: { B: "2" } } }));
    expect(plist.parse(artifact.content)).toMatchObject({ EnvironmentVariables: { B: "2" } });
  });

  it("is pure: the same service renders the same bytes", () => {
    const resource = service({ name: "web", exec: "/opt/web/bin/server", env: { B: "2", A: "1" }, restart: "always" });
    expect(only(resource).content).toBe(only(structuredClone(resource)).content);
  });
});

describe("timers", () => {
  it("backup (30 2 * * *, user): one StartCalendarInterval entry, no RunAtLoad", async () => {
    const artifact = only(timer({ name: "backup", exec: "restic backup ~/Documents", schedule: "30 2 * * *", user: true }));
    expect(artifact.path).toBe("/home/alice/Library/LaunchAgents/tend.backup.plist");
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/timer-backup.plist");
    expect(plist.parse(artifact.content)).toEqual({
      Label: "tend.backup",
      ProgramArguments: ["/bin/sh", "-c", "exec restic backup ~/Documents"],
      StartCalendarInterval: [{ Hour: 2, Minute: 30 }],
    });
  });

  it("gc (@weekly, system): Sunday midnight, root:wheel", async () => {
    const artifact = only(timer({ name: "gc", exec: "/usr/local/bin/tend gc --older-than 14d", schedule: "@weekly" }));
    expect(artifact).toMatchObject({ path: "/Library/LaunchDaemons/tend.gc.plist", owner: "root", group: "wheel", mode: 0o644 });
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/timer-gc.plist");
    expect(plist.parse(artifact.content)).toMatchObject({ StartCalendarInterval: [{ Weekday: 0, Hour: 0, Minute: 0 }] });
  });

  it("a work-hours schedule with env: one entry per combination", async () => {
    const artifact = only(timer({ name: "report", exec: "/usr/local/bin/report", schedule: "0,30 9-10 * * mon-wed", env: { TZ: "Europe/Berlin" } }));
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/timer-report.plist");
    const parsed = plist.parse(artifact.content) as { StartCalendarInterval: unknown[]; EnvironmentVariables: unknown };
    expect(parsed.StartCalendarInterval).toHaveLength(12);
    expect(parsed.StartCalendarInterval[0]).toEqual({ Weekday: 1, Hour: 9, Minute: 0 });
    expect(parsed.StartCalendarInterval[11]).toEqual({ Weekday: 3, Hour: 10, Minute: 30 });
    expect(parsed.EnvironmentVariables).toEqual({ TZ: "Europe/Berlin" });
  });

  it("every minute (* * * * *) is one empty calendar entry (every key a wildcard), never StartInterval, which counts from load", async () => {
    const artifact = only(timer({ name: "tick", exec: "/usr/local/bin/tick", schedule: "* * * * *" }));
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/timer-tick.plist");
    expect(artifact.content).toContain("<key>StartCalendarInterval</key>\n\t<array>\n\t\t<dict/>\n\t</array>");
    expect(plist.parse(artifact.content)).toEqual({ Label: "tend.tick", ProgramArguments: ["/usr/local/bin/tick"], StartCalendarInterval: [{}] });
  });

  it.each(["* * * * *", "*/1 * * * *", "0-59 * * * *", "@hourly", "*/5 * * * *", "0 9-17 * * 1-5"])("%s is written as StartCalendarInterval entries only", (schedule) => {
    const parsed = plist.parse(only(timer({ name: "t", exec: "/bin/t", schedule })).content) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["Label", "ProgramArguments", "StartCalendarInterval"]);
    expect(Array.isArray(parsed.StartCalendarInterval)).toBe(true);
  });
});
