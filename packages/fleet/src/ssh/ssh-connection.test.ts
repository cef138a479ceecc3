import { readFileSync } from "node:fs";
import { hostname, release, userInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { parseDetection, detectScript } from "../remote/detect-host.js";
import { remoteCommandLine } from "../remote/remote-runner.js";
import { SshConnection } from "./ssh-connection.js";
import { LocalChannel } from "../__fixtures__/local-channel.js";

describe("the ssh transport", () => {
  it("passes the destination's settings and ssh_config options, and never turns host key checking off", () => {
    const conn = new SshConnection("web1", { host: "10.0.0.11", user: "admin", port: 2222, identity: "/k/id", jump: "bastion", options: { ServerAliveInterval: "15" } }, "/tmp/ctl");
    const args = conn.destinationArgs();
    expect(args).toEqual(["-l", "admin", "-p", "2222", "-i", "/k/id", "-J", "bastion", "-o", "ServerAliveInterval=15", "-o", "BatchMode=yes", "-o", expect.stringMatching(/^ControlPath=\/tmp\/ctl\/[0-9a-f]{16}$/)]);
    expect(args.join(" ")).not.toMatch(/StrictHostKeyChecking/);
  });

  it("runs a command on the target through env with a minimal environment, every word quoted, sudo -n when not root", () => {
    expect(remoteCommandLine({ argv: ["systemctl", "start", "--", "it's"], env: { A: "x y" } }, "sudo -n ")).toBe("sudo -n env -i 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' 'LC_ALL=C' 'A=x y' 'systemctl' 'start' '--' 'it'\\''s'");
  });

  it("detects a host in one script: pid 1, uname, os-release, marker paths, users", async () => {
    const channel = new LocalChannel();
    const result = await channel.script(detectScript(["/", "/no/such/marker"]));
    const found = parseDetection(result.stdout);
    expect(found.uid).toBe(process.getuid?.());
    expect(found.platform).toBe("linux");
    expect(found.present).toEqual(new Set(["/"]));
    expect(found.users.users.get("root")).toEqual({ uid: 0, gid: 0 });
    expect([found.hostname, found.kernel, found.arch, found.login]).toEqual([hostname(), release(), process.arch, userInfo().username]);
    expect(found.pid1).toBe(readFileSync("/proc/1/comm", "utf8").trim());
    // Without /proc: uname, id and hostname answer the same.
    const without = parseDetection((await channel.script(detectScript(["/"]).replaceAll("/proc/", "/no-proc/"))).stdout);
    expect({ ...without, users: undefined }).toEqual({ ...found, pid1: "", users: undefined });
    channel.close();
  });
});
