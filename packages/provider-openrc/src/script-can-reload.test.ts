import { describe, expect, it } from "vitest";
import { scriptCanReload } from "./script-can-reload.js";

const openrc = (body: string) => `#!/sbin/openrc-run\n\ndescription="demo"\n${body}\n`;

describe("scriptCanReload", () => {
  it("accepts an openrc-run script that lists reload and defines it", () => {
    expect(scriptCanReload(openrc('extra_started_commands="reload reopen"\n\nreload() {\n\tebegin "Reloading"\n\teend 0\n}'))).toBe(true);
    expect(scriptCanReload(openrc('extra_commands="checkconfig reload"\nreload()\n{\n\t:\n}'))).toBe(true);
    expect(scriptCanReload(openrc('extra_started_commands="${extra_started_commands} reload"\nreload() { :; }'))).toBe(true);
    expect(scriptCanReload(`#!/usr/sbin/openrc-run\nopts="reload"\nreload() { :; }\n`)).toBe(true);
  });

  it("refuses one that lists reload without defining it, or defines it without listing it", () => {
    expect(scriptCanReload(openrc('extra_started_commands="reload"'))).toBe(false);
    expect(scriptCanReload(openrc("reload() { :; }"))).toBe(false);
    expect(scriptCanReload(openrc('extra_started_commands="force-reload reloadall"\nreload() { :; }'))).toBe(false);
    expect(scriptCanReload(openrc('extra_commands="checkconfig"'))).toBe(false);
  });

  it("reads a sysv script's case labels", () => {
    const lsb = (labels: string) => `#!/bin/sh\n### BEGIN INIT INFO\n# Provides: demo\n### END INIT INFO\ncase "$1" in\n  start) : ;;\n  ${labels}) : ;;\nesac\n`;
    expect(scriptCanReload(lsb("reload|force-reload"))).toBe(true);
    expect(scriptCanReload(lsb("force-reload | reload"))).toBe(true);
    expect(scriptCanReload(lsb("reload"))).toBe(true);
    expect(scriptCanReload(lsb("force-reload"))).toBe(false);
    expect(scriptCanReload(lsb("restart|force-reload"))).toBe(false);
  });

  it("accepts an init-d-script that defines do_reload", () => {
    const text = '#! /bin/sh\nif [ true != "$INIT_D_SCRIPT_SOURCED" ] ; then\n    set "$0" "$@"; INIT_D_SCRIPT_SOURCED=true . /lib/init/init-d-script\nfi\n';
    expect(scriptCanReload(`${text}do_reload() { call do_start_cmd; }\n`)).toBe(true);
    expect(scriptCanReload(text)).toBe(false);
  });
});
