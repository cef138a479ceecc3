import { readdir, readFile } from "node:fs/promises";
import { parseExec, service, ServiceSchema, type Service } from "@tend/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verifyUnits } from "./__testing__/systemd-analyze.js";
import { checkResource } from "./check-resource.js";
import { renderServiceUnit } from "./render-service-unit.js";

/** Characters that mean something to systemd's parser, to a shell, or to neither. */
const TRICKY = [..."abcXYZ019 \t\\%$\"';|&<>()*?[]#~{}!/-_.=:,@+^é"];
const tricky = (min: number, max: number) => fc.array(fc.constantFrom(...TRICKY), { minLength: min, maxLength: max }).map((chars) => chars.join(""));
const EXISTING = new Set(["/usr/bin/env", "/bin/sh", "/bin/echo"]);

/**
 * What the spec said, as systemd will see it: the argv parseExec gives, the description, each
 * environment variable, and `User=` (set through the hatch after everything else, so a value
 * that swallowed the next line would lose it).
 */
function expected(s: Service & { exec: string }) {
  return {
    argv: parseExec(s.exec).argv,
    description: s.description || s.name,
    environment: Object.entries(s.env ?? {}).map(([k, v]) => `${k}=${v}`),
    user: "daemon",
  };
}

async function verifyServices(services: (Service & { exec: string })[]) {
  const files = Object.fromEntries(services.map((s) => [`tend-${s.name}.service`, renderServiceUnit(s)]));
  const result = await verifyUnits(files);
  expect(result.messages, result.messages.join("\n")).toEqual([]);
  expect(result.exitCode).toBe(0);
  for (const s of services) {
    const dumped = result.units.get(`tend-${s.name}.service`);
    expect(dumped, `systemd-analyze dumped tend-${s.name}.service`).toBeDefined();
    expect({ argv: dumped!.commands.ExecStart?.[0], description: dumped!.description, environment: dumped!.environment, user: dumped!.user }).toEqual(expected(s));
  }
}

describe("unit values mean what the spec said (systemd-analyze verify as the oracle)", () => {
  it("keeps backslashes, %, $, quotes, spaces and tabs in exec, env and description", async () => {
    const services = [
      service("a", { exec: `date +%F > "/tmp/$USER day"`, description: "100% C:\\", env: { MSG: `say "hi" 5% \\o/ $HOME`, EDGE: " lead and trail " } }),
      service("b", { exec: "/bin/echo C:\\", description: "ends in two \\\\", env: { X: "C:\\" } }),
      service("c", { exec: "echo %n %% $$ ${HOME} $HOME ;", description: "%n %i %%" }),
      service("d", { exec: "echo ; done", description: "semicolon" }),
      service("e", { exec: "printf '%s\\n' \"a\tb\"", description: "tab\tinside" }),
    ].map((s) => ServiceSchema.parse({ ...s, systemd: { User: "daemon" } }) as Service & { exec: string });
    await verifyServices(services);
  });

  it("gives systemd's ExecStart prefixes (@ + ! !! :) no meaning: a bare name that starts with one is env's argument", async () => {
    const services = ["@", "+", "!", "!!", ":"].map((prefix, i) => ServiceSchema.parse({ ...service(`p${i}`, { exec: `${prefix}echo hi` }), systemd: { User: "daemon" } }) as Service & { exec: string });
    await verifyServices(services);
    expect(services.map((s) => parseExec(s.exec).argv[1])).toEqual(["@echo", "+echo", "!echo", "!!echo", ":echo"]);
  });

  it("holds for random exec lines, descriptions and environment values", async () => {
    const arbitrary = fc.array(
      fc.record({
        prefix: fc.constantFrom("/bin/echo ", "echo ", ""),
        exec: tricky(1, 30),
        description: tricky(1, 20).filter((d) => d.trim() === d && d !== ""),
        value: tricky(0, 20),
      }),
      { minLength: 1, maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(arbitrary, async (cases) => {
        const services = cases
          .map((c, i) => ({ type: "service" as const, name: `r${i}`, exec: c.prefix + c.exec, description: c.description, env: { V: c.value }, systemd: { User: "daemon" } }))
          .filter((s) => ServiceSchema.safeParse(s).success && s.exec.trim() !== "" && checkResource(s).length === 0 && EXISTING.has(parseExec(s.exec).argv[0]!));
        fc.pre(services.length > 0);
        await verifyServices(services);
      }),
      { numRuns: 40 },
    );
  });

  it("every golden unit loads cleanly (missing example executables aside)", async () => {
    const dir = new URL("./__golden__/", import.meta.url);
    const system: Record<string, string> = {};
    const user: Record<string, string> = {};
    for (const name of await readdir(dir)) {
      const unit = `tend-${name.replace(".user.", ".")}`;
      (name.includes(".user.") ? user : system)[unit] = await readFile(new URL(name, dir), "utf8");
    }
    for (const [files, options] of [
      [system, {}],
      [user, { user: true }],
    ] as const) {
      const result = await verifyUnits(files, options);
      const problems = result.messages.filter((m) => !/Command \S+ is not executable: No such file or directory$/.test(m));
      expect(problems, problems.join("\n")).toEqual([]);
      expect([...result.units.keys()].filter((u) => u.startsWith("tend-")).sort()).toEqual(Object.keys(files).sort());
    }
  });
});
