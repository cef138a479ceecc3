import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_INPUT_BYTES, TendErrors } from "@tend/core";
import { describe, expect, it } from "vitest";
import { buildHostsJsonSchema } from "./inventory-schema.js";
import { limitHosts } from "./limit.js";
import { loadInventory, parseInventory } from "./load-inventory.js";

const INVENTORY = `
defaults:
  user: admin
  ssh:
    ServerAliveInterval: 15
hosts:
  web1:
    host: 10.0.0.11
    groups: [web]
    facts: { role: primary }
  web2:
    host: 10.0.0.12
    port: 2222
    identity: ~/.ssh/fleet
    groups: [web]
  db1:
    host: db1.internal
    jump: bastion
    user: root
    ssh: { StrictHostKeyChecking: "yes" }
  lone:
groups:
  web:
    facts: { tier: front, role: web }
  db:
    hosts: [db1]
    facts: { tier: back }
`;

describe("the inventory", () => {
  it("resolves each host's ssh destination, groups and facts (host facts over group facts)", () => {
    const inv = parseInventory(INVENTORY);
    const byName = Object.fromEntries(inv.hosts.map((h) => [h.name, h]));
    expect(byName.web1).toEqual({ name: "web1", ssh: { host: "10.0.0.11", user: "admin", options: { ServerAliveInterval: "15" } }, groups: ["web"], facts: { tier: "front", role: "primary" } });
    expect(byName.web2!.ssh).toEqual({ host: "10.0.0.12", user: "admin", port: 2222, identity: "~/.ssh/fleet", options: { ServerAliveInterval: "15" } });
    expect(byName.db1!.ssh).toEqual({ host: "db1.internal", user: "root", jump: "bastion", options: { ServerAliveInterval: "15", StrictHostKeyChecking: "yes" } });
    expect(byName.db1!.groups).toEqual(["db"]);
    expect(byName.lone).toEqual({ name: "lone", ssh: { host: "lone", user: "admin", options: { ServerAliveInterval: "15" } }, groups: [], facts: {} });
  });

  it.each([
    ["hosts:\n  web1:\n    port: 70000\n", /host web1, field port/],
    ["hosts:\n  web1:\n    hostname: x\n", /host web1: unknown field hostname/],
    ["hosts:\n  web1:\n    groups: [nope]\n", /host web1, field groups: unknown group nope/],
    ["hosts:\n  web1: {}\ngroups:\n  g:\n    hosts: [web9]\n", /group g, field hosts: lists host web9/],
    ["hosts:\n  web1:\n    ssh: { 'Bad Option': 1 }\n", /host web1, field ssh/],
    ["hosts: {}\n", /no hosts/],
    ["hosts:\n  - web1\n", /field hosts/],
    ["hosts: [\n", /not valid YAML/],
    ['hosts:\n  web1:\n    host: "-oProxyCommand=touch /tmp/x"\n', /host web1, field host: must not start with `-`: ssh would read the address as an option/],
    ['hosts:\n  web1:\n    user: "-oProxyCommand=x"\n', /host web1, field user: must not start with `-`: ssh would read the login as an option/],
    ['groups:\n  g:\n    jump: "-Jx"\nhosts:\n  web1: { groups: [g] }\n', /group g, field jump: must not start with `-`: ssh would read the jump host as an option/],
    ['hosts:\n  web1:\n    host: "10.0.0.1 -p 2"\n', /host web1, field host: must be one word, without spaces or control characters/],
    ['defaults:\n  user: "root\\nx"\nhosts:\n  web1: {}\n', /the inventory, field defaults.user: must be one word/],
    ['hosts:\n  web1:\n    ssh: { ProxyJump: "a\\nProxyCommand b" }\n', /host web1, field ssh.ProxyJump: must be one line, without control characters/],
  ])("names the host and field of a mistake: %j", (text, message) => {
    expect(() => parseInventory(text)).toThrow(message);
  });

  it.each([
    ["", "the inventory: is empty: it lists the hosts under `hosts:`, each by name (`web1: { host: 10.0.0.11 }`)"],
    ["defaults:\n  user: x\n", "the inventory, field hosts: is missing: the inventory lists its hosts under `hosts:`"],
    ["hosts:\n  - web1\n", "the inventory, field hosts: must be a map of host names to their settings (`web1: { host: 10.0.0.11 }`), not a list"],
    ['hosts:\n  web1:\n    port: "22"\n', "host web1, field port: must be a number; write it without quotes: `22`"],
    ["hosts:\n  web1:\n    port: 70000\n", "host web1, field port: must be a port number from 1 to 65535, not 70000"],
    ["hosts:\n  web1:\n    groups: web\n", "host web1, field groups: must be a list; write `[web]`"],
    ["hosts:\n  web1:\n    identity: 5\n", 'host web1, field identity: must be text; write it in quotes: `"5"`'],
    ["hosts:\n  web1:\n    hostname: x\n", "host web1: unknown field hostname; a host takes host, user, port, identity, jump, ssh, groups, facts"],
    ["hosts:\n  web 1: {}\n", "host web 1: `web 1` is not a host name: names take letters, digits"],
    ["groups:\n  web: [web1]\nhosts:\n  web1: {}\n", "group web: must be a map of the group's settings (`hosts: [web1]`), not a list"],
  ])("says what to write instead, in tend's words: %j", (text, message) => {
    expect(() => parseInventory(text)).toThrow(`tend.hosts.yaml: ${message}`);
  });

  it("names every mistake at once, each at its line", () => {
    const text = 'defaults:\n  user: admin\nhosts:\n  web1:\n    port: "22"\n  web2:\n    hostname: x\n';
    let caught: unknown;
    try {
      parseInventory(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TendErrors);
    expect((caught as TendErrors).errors.map((e) => [e.message.split(":")[1], e.location.line])).toEqual([
      [" host web1, field port", 5],
      [" host web2", 7],
    ]);
    expect(() => parseInventory("hosts:\n  web1:\n    groups: [nope]\n")).toThrow(expect.objectContaining({ location: expect.objectContaining({ file: "tend.hosts.yaml", line: 3 }) }));
  });

  it("is refused before it is read when it is a device, a FIFO or too big", () => {
    const dir = mkdtempSync(join(tmpdir(), "tend-inventory-"));
    const fifo = join(dir, "tend.hosts.yaml");
    execFileSync("mkfifo", [fifo]);
    const big = join(dir, "big.hosts.yaml");
    writeFileSync(big, "");
    truncateSync(big, MAX_INPUT_BYTES + 1);
    expect(() => loadInventory("/dev/zero")).toThrow("/dev/zero is not a regular file (a device, FIFO or socket); tend reads an inventory only from a file");
    expect(() => loadInventory(fifo)).toThrow(`${fifo} is not a regular file`);
    expect(() => loadInventory(big)).toThrow(`${big} is 16.0 MiB; an inventory file may be at most 16.0 MiB`);
  });

  it("has a committed JSON Schema generated from the zod schema", async () => {
    await expect(`${JSON.stringify(buildHostsJsonSchema(), null, 2)}\n`).toMatchFileSnapshot("../../hosts-schema.json");
    expect(JSON.parse(readFileSync(new URL("../../hosts-schema.json", import.meta.url), "utf8")).properties.hosts).toBeDefined();
  });
});

describe("--limit", () => {
  const inv = parseInventory(INVENTORY);
  const names = (pattern: string | undefined) => limitHosts(inv, pattern).map((h) => h.name);
  it.each([
    [undefined, ["web1", "web2", "db1", "lone"]],
    ["web1", ["web1"]],
    ["web", ["web1", "web2"]],
    ["web*", ["web1", "web2"]],
    ["web,db", ["web1", "web2", "db1"]],
    ["web:!web2", ["web1"]],
    ["!web", ["db1", "lone"]],
    ["web*:&web", ["web1", "web2"]],
    ["w?b2", ["web2"]],
  ])("%j selects %j", (pattern, expected) => {
    expect(names(pattern)).toEqual(expected);
  });
  it("refuses a term that matches nothing", () => {
    expect(() => names("wbe1")).toThrow(/`wbe1` matches no host or group/);
  });
});
