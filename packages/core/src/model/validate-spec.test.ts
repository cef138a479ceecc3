import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { validateResource, validateSpec } from "./validate-spec.js";
import { TendError, TendErrors } from "../errors/tend-error.js";

function messages(raw: unknown[]): string[] {
  try {
    validateSpec(raw);
    return [];
  } catch (error) {
    if (error instanceof TendErrors) return error.errors.map((e) => e.message);
    if (TendError.isInstance(error)) return [error.message];
    throw error;
  }
}

describe("validateSpec", () => {
  it("accepts the seed's examples", () => {
    expect(
      validateSpec([
        { type: "service", name: "syncthing", exec: "syncthing serve --no-browser", user: true, restart: "always", after: ["network"] },
        { type: "service", name: "web", exec: "/opt/web/bin/server --port 8080", restart: "on_failure", env: { RUST_LOG: "info" }, systemd: { MemoryMax: "512M", unit: { StartLimitBurst: 3 } } },
        { type: "service", name: "sshd" },
        { type: "service", name: "gdm", displayManager: true },
        { type: "service", name: "nordvpnd.socket" },
        { type: "timer", name: "backup", exec: "restic backup ~/Documents", schedule: "30 2 * * *", user: true },
        { type: "timer", name: "gc", exec: "/usr/local/bin/tend gc --older-than 14d", schedule: "@weekly" },
      ]),
    ).toHaveLength(7);
  });

  it("rejects a bad name with the seed's exact text", () => {
    expect(messages([{ type: "service", name: "my service", exec: "x" }])).toEqual([
      "service name `my service` may only hold letters, digits and `_ . - @`, and must not start with `.` or `-`",
    ]);
    expect(messages([{ type: "service", name: "-x", exec: "x" }])[0]).toContain("must not start with `.` or `-`");
    expect(messages([{ type: "timer", name: ".hidden", exec: "x", schedule: "@daily" }])[0]).toMatch(/^timer name `\.hidden`/);
  });

  it.each([
    ["exec", { exec: "a\nUser=root" }],
    ["exec", { exec: "a\rb" }],
    ["exec", { exec: "a\u2028b" }],
    ["description", { exec: "x", description: "x\u0000" }],
    ["env.A", { exec: "x", env: { A: "1\n* * * * * root rm" } }],
  ])("refuses line breaks and control characters in %s", (field, fields) => {
    try {
      validateSpec([{ type: "service", name: "web", ...fields }]);
      expect.unreachable();
    } catch (error) {
      expect(TendError.isInstance(error)).toBe(true);
      expect((error as TendError).location).toMatchObject({ resource: "service:web", field });
      expect((error as TendError).message).toContain("one line");
    }
  });

  it("refuses any binary string holding NUL or another control character, in exec, description, an env value or a file's content, naming the field", () => {
    // Bytes as a file might hold them: any code units, with at least one C0 control other than TAB (NUL among them).
    const control = fc.integer({ min: 0, max: 0x1f }).filter((c) => c !== 0x09).map((c) => String.fromCharCode(c));
    const binary = fc.tuple(fc.string({ unit: "binary" }), control, fc.string({ unit: "binary" })).map(([a, c, b]) => a + c + b);
    const cases = fc.oneof(
      binary.map((v) => ({ field: "exec", fields: { exec: `/bin/x ${v}` } })),
      binary.map((v) => ({ field: "description", fields: { exec: "/bin/x", description: v } })),
      binary.map((v) => ({ field: "env.A", fields: { exec: "/bin/x", env: { A: v } } })),
    );
    fc.assert(
      fc.property(cases, ({ field, fields }) => {
        let caught: unknown;
        try {
          validateSpec([{ type: "service", name: "web", ...fields }]);
        } catch (error) {
          caught = error;
        }
        expect(TendError.isInstance(caught)).toBe(true);
        expect((caught as TendError).code).not.toBe("TEND_INTERNAL");
        expect((caught as TendError).location).toMatchObject({ resource: "service:web", field });
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.tuple(fc.string({ unit: "binary" }), fc.string({ unit: "binary" })), ([a, b]) => {
        expect(() => validateSpec([{ type: "file", name: "f", path: "/etc/f", content: `${a}\u0000${b}` }])).toThrow(TendError);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps TAB, which is harmless", () => {
    expect(validateSpec([{ type: "service", name: "web", exec: "a\tb" }])).toHaveLength(1);
  });

  it("requires env names to be shell variable names", () => {
    expect(messages([{ type: "service", name: "web", exec: "x", env: { "A-B": "1" } }])[0]).toContain("shell variable name");
  });

  it("says to quote a number or true/false given where text goes, that YAML 1.2 reads yes as text, and to bracket one name where a list goes", () => {
    expect(messages([{ type: "service", name: "web", exec: "/opt/web", env: { PORT: 8080, DEBUG: true }, desired: { state: "running", enabled: "yes" }, user: "on" }])).toEqual([
      'service:web has an invalid `user`: must be true or false, not the text `on` (YAML 1.2 reads yes, no, on and off as text)',
      'service:web has an invalid `env.PORT`: must be text; write it in quotes: `"8080"`',
      'service:web has an invalid `env.DEBUG`: must be text; write it in quotes: `"true"`',
      "service:web has an invalid `desired.enabled`: must be true or false, not the text `yes` (YAML 1.2 reads yes, no, on and off as text)",
    ]);
    expect(messages([{ type: "service", name: "web", exec: "/opt/web", after: "db", restartOn: "file:conf" }])).toEqual([
      "service:web has an invalid `after`: must be a list; write `[db]`",
      "service:web has an invalid `restartOn`: must be a list; write `[file:conf]`",
    ]);
    expect(messages([{ type: "service", name: "web", exec: "/opt/web", desired: { state: "running" } }])).toEqual([
      "service:web has an invalid `desired`: needs both `state` (running or stopped) and `enabled` (true or false); neither has a default",
    ]);
  });

  it("takes a File's mode as a string of octal digits, and says why a number is not one", () => {
    expect(validateSpec([{ type: "file", name: "f", path: "/etc/f", content: "", mode: "0640" }])[0]).toMatchObject({ mode: "0640" });
    expect(messages([{ type: "file", name: "f", path: "/etc/f", content: "", mode: 0o644 }])).toEqual([
      'file:f has an invalid `mode`: must be an octal mode in quotes, such as `"0644"`: as a number its digits are not octal (TypeScript\'s 0o644 is 420)',
    ]);
  });

  it("refuses an env variable longer than the kernel passes to a program, naming it", () => {
    const value = "v".repeat(131_071 - "BIG=".length);
    expect(validateSpec([{ type: "service", name: "web", exec: "/opt/web", env: { BIG: value } }])[0]).toMatchObject({ env: { BIG: value } });
    expect(() => validateSpec([{ type: "service", name: "web", exec: "/opt/web", env: { BIG: `${value}v` } }])).toThrow(
      "service:web has an invalid `env.BIG`: `NAME=value` is 131,072 bytes, and Linux starts no program with one over 131,071 (MAX_ARG_STRLEN)",
    );
  });

  it("rejects duplicates, case-only twins and a service and a timer that would share a unit", () => {
    expect(messages([{ type: "service", name: "web", exec: "x" }, { type: "service", name: "web", exec: "y" }])).toEqual(["service:web is declared twice"]);
    expect(messages([{ type: "service", name: "Web", exec: "x" }, { type: "service", name: "web", exec: "y" }])[0]).toContain("only in case");
    expect(messages([{ type: "service", name: "backup", exec: "x" }, { type: "timer", name: "backup", exec: "y", schedule: "@daily" }])[0]).toContain(
      "has the same name as service:backup; both would write tend-backup.service",
    );
    expect(messages([{ type: "file", name: "a", path: "/etc/x", content: "" }, { type: "file", name: "b", path: "/etc/x", content: "" }])[0]).toContain("writes /etc/x");
  });

  it("rejects two files whose paths differ only in case or in Unicode form (one file on APFS, look-alikes elsewhere)", () => {
    const file = (name: string, path: string) => ({ type: "file", name, path, content: "" });
    expect(messages([file("a", "/etc/Web.conf"), file("b", "/etc/web.conf")])).toEqual(["file:b writes /etc/web.conf, which differs from file:a's /etc/Web.conf only in case"]);
    const nfc = "/etc/caf\u00e9.conf";
    const nfd = "/etc/cafe\u0301.conf";
    expect(messages([file("a", nfc), file("b", nfd)])).toEqual([`file:b writes ${nfd}, which differs from file:a's ${nfc} only in its Unicode form (NFC, NFD)`]);
    expect(messages([file("a", "/etc/web.conf"), file("b", "/etc/web.conf.d")])).toEqual([]);
  });

  it("names the cycle", () => {
    expect(
      messages([
        { type: "service", name: "a", exec: "x", after: ["b"] },
        { type: "service", name: "b", exec: "x", requires: ["Service[c]"] },
        { type: "service", name: "c", exec: "x", restartOn: ["service:a"] },
      ]),
    ).toEqual(["resources depend on each other in a cycle: service:a -> service:b -> service:c -> service:a"]);
  });

  it("rejects restartOn and reloadOn for the same resource, in either reference form", () => {
    expect(
      messages([
        { type: "file", name: "conf", path: "/etc/c", content: "" },
        { type: "service", name: "web", exec: "x", restartOn: ["file:conf"], reloadOn: ["File[conf]"], reloadSignal: "HUP" },
      ]),
    ).toEqual(["service:web lists File[conf] in both restartOn and reloadOn"]);
  });

  it("needs both state and enabled in desired", () => {
    expect(messages([{ type: "service", name: "web", exec: "x", desired: { state: "running" } }])[0]).toContain("needs both `state`");
  });

  it("rejects unknown references and unknown fields", () => {
    expect(messages([{ type: "service", name: "nginx", requires: ["Package[nginx]"] }])[0]).toBe(
      "service:nginx lists `Package[nginx]` in requires, but the spec declares no such resource",
    );
    expect(messages([{ type: "service", name: "web", exec: "x", restrat: "always" }])[0]).toContain("`restrat`");
    expect(messages([{ type: "service", name: "web", exec: "x", after: ["db"] }])[0]).toContain("lists `db` in after");
  });

  it("says a resource's `type` is missing, or which type a typo meant, in tend's words, not zod's", () => {
    expect(messages([{ kind: "service", name: "web", exec: "x" }])).toEqual([
      "resource:web has an invalid `type`: is missing: each resource says what it is, with `type`: service, timer, file or package; `kind: service` is written `type: service` here",
    ]);
    expect(messages([{ name: "web", exec: "x" }])).toEqual([
      "resource:web has an invalid `type`: is missing: each resource says what it is, with `type`: service, timer, file or package",
    ]);
    expect(messages([{ type: "sevrice", name: "web", exec: "x" }])).toEqual([
      "sevrice:web has an invalid `type`: must be service, timer, file or package, not `sevrice`; did you mean `service`?",
    ]);
    expect(messages([{ type: 3, name: "web" }])).toEqual(["resource:web has an invalid `type`: must be service, timer, file or package, not 3"]);
  });

  it("says in tend's words what a missing, empty, out-of-range or wrongly shaped field needs", () => {
    const say = (fields: Record<string, unknown>, type = "service") => messages([{ type, name: "x", ...(type === "service" ? { exec: "/x" } : {}), ...fields }]);
    expect(say({ env: ["A=1"] })).toEqual(["service:x has an invalid `env`: must be a map (`NAME: value` lines), not a list"]);
    expect(say({ exec: "" })).toEqual(["service:x has an invalid `exec`: must not be empty"]);
    expect(say({ verify: { settle: -1 } })).toEqual(["service:x has an invalid `verify.settle`: must be at least 0, not -1"]);
    expect(say({ verify: { settle: 601 } })).toEqual(["service:x has an invalid `verify.settle`: must be at most 600, not 601"]);
    expect(say({ verify: { settle: "2" } })).toEqual(["service:x has an invalid `verify.settle`: must be a number; write it without quotes: `2`"]);
    expect(say({ verify: { settle: "2s" } })).toEqual(["service:x has an invalid `verify.settle`: must be a number, not `2s`"]);
    expect(say({ desired: "running" })).toEqual(["service:x has an invalid `desired`: must be `{state: running, enabled: true}` (state running or stopped, enabled true or false), not `running`"]);
    expect(say({ exec: "/t" }, "timer")).toEqual(["timer:x has an invalid `schedule`: is missing"]);
    expect(messages([null])).toEqual(["resource #1 is not a resource: each is a map of its fields (`type: service`, `name: web`, …), not empty (null)"]);
  });

  it("names the values a field of a few takes, and the one a typo meant", () => {
    expect(messages([{ type: "service", name: "web", exec: "x", restart: "on-failure" }])).toEqual([
      "service:web has an invalid `restart`: must be one of no, on_failure, always, not `on-failure`; did you mean `on_failure`?",
    ]);
    expect(messages([{ type: "service", name: "web", exec: "x", desired: { state: "up", enabled: true } }])).toEqual([
      "service:web has an invalid `desired.state`: must be one of running, stopped, not `up`",
    ]);
  });

  it("refuses fields a distro unit cannot take, with the seed's text", () => {
    expect(messages([{ type: "service", name: "gdm", restart: "always" }])).toEqual([
      "service:gdm has no exec, so it enables the distro's own unit, which takes no restart",
    ]);
  });

  it("refuses a `__proto__` key at any depth, which JavaScript would drop without a word", () => {
    // As a spec's parser gives it: an own key, which an object literal cannot spell.
    const inEnv = JSON.parse('{"type":"service","name":"web","exec":"/opt/web","env":{"__proto__":"1","B":"2"}}') as unknown;
    expect(() => validateSpec([inEnv])).toThrow("service:web has an invalid `env.__proto__`: is a key tend refuses: `__proto__` cannot be held as data, so it would be dropped without a word");
    expect(validateResource(inEnv)).toBeUndefined();
    const inHatch = JSON.parse('{"type":"service","name":"web","exec":"/opt/web","systemd":{"Service":{"__proto__":{"User":"root"}}}}') as unknown;
    expect(() => validateSpec([inHatch])).toThrow("service:web has an invalid `systemd.Service.__proto__`");
    expect(validateSpec([{ type: "service", name: "web", exec: "/opt/web", env: { A: "1", B: "2" } }])[0]).toMatchObject({ env: { A: "1", B: "2" } });
  });

  it("only ever throws TendErrors on random input", () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()), fc.dictionary(fc.string(), fc.string()));
    const resource = fc.record(
      {
        type: fc.constantFrom("service", "timer", "file", "Service", "other"),
        name: fc.oneof(fc.string(), fc.constantFrom("web", "db", "a.b", "@x")),
        exec: fc.oneof(fc.string(), value),
        schedule: fc.string(),
        path: fc.oneof(fc.string(), fc.constant("/etc/x")),
        content: fc.string(),
        after: fc.array(fc.constantFrom("web", "db", "network", "x.target")),
        requires: fc.array(fc.constantFrom("service:web", "File[x]", "nope")),
        restartOn: fc.array(fc.constantFrom("service:db", "timer:web")),
        env: fc.dictionary(fc.string(), fc.string()),
        __proto__: value,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(resource, { maxLength: 6 }), (raw) => {
        try {
          validateSpec(raw);
        } catch (error) {
          if (!TendError.isInstance(error)) throw error;
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("after", () => {
  it("refuses a distro unit, whose unit name tend does not write", () => {
    expect(() => validateSpec([{ type: "service", name: "sshd" }, { type: "service", name: "web", exec: "x", after: ["sshd"] }])).toThrow(
      "service:web has an invalid `after`: names service:sshd, a unit the distro ships",
    );
  });
});

describe("schedules", () => {
  it("are checked with the spec, on every init, naming the timer and the field", () => {
    try {
      validateSpec([{ type: "timer", name: "gc", exec: "x", schedule: "@yearly" }]);
      expect.unreachable();
    } catch (error) {
      expect((error as TendError).message).toBe("schedule `@yearly` is not supported, use @hourly, @daily, @weekly, @monthly or five cron fields");
      expect((error as TendError).location).toMatchObject({ resource: "timer:gc", field: "schedule" });
    }
    expect(messages([{ type: "timer", name: "gc", exec: "x", schedule: "0 0 1 * 1" }])[0]).toContain("restricts both day-of-month and day-of-week");
  });

  it("refuse a no-break space between fields, which cron would not split on", () => {
    expect(messages([{ type: "timer", name: "gc", exec: "x", schedule: "30\u00a02 * * *" }])).toEqual([
      "schedule `30\u00a02 * * *` has a bad whole field: only spaces and tabs separate fields, and it holds U+00A0",
    ]);
  });
});

describe("validateSpec: specs that could never converge", () => {
  it("refuses a file whose path is the folder of another file's, once, in either order", () => {
    const outer = { type: "file", name: "app", path: "/etc/app", content: "x" };
    const inner = (name: string, path: string) => ({ type: "file", name, path, content: "" });
    const why = "file:app has an invalid `path`: /etc/app is the folder that file:conf's /etc/app/conf.d/x.conf is written in; one path cannot be both a file and a folder";
    expect(messages([outer, inner("conf", "/etc/app/conf.d/x.conf"), inner("more", "/etc/app/y.conf")])).toEqual([why]);
    expect(() => validateSpec([inner("conf", "/etc/app/conf.d/x.conf"), outer])).toThrow(why);
    expect(validateSpec([outer, inner("near", "/etc/apps/x.conf"), inner("nearer", "/etc/app.d/x.conf")])).toHaveLength(3);
  });

  it("takes only normal absolute paths, so two spellings of one file cannot be two resources", () => {
    expect(messages([{ type: "file", name: "a", path: "//etc//app.conf", content: "" }])).toEqual([
      "file:a has an invalid `path`: must be an absolute, normal path: no `.` or `..` parts, no `//`, no trailing `/`",
    ]);
    expect(messages([{ type: "file", name: "a", path: "/etc/app.conf/", content: "" }])[0]).toContain("no trailing `/`");
  });

  it("refuses `/` and paths in procfs and sysfs, which no write by rename can replace", () => {
    expect(messages([{ type: "file", name: "a", path: "/", content: "" }])).toEqual(["file:a has an invalid `path`: must name a file, not `/`"]);
    for (const [path, folder] of [["/proc/sys/vm/swappiness", "/proc"], ["/sys/kernel/mm/transparent_hugepage/enabled", "/sys"], ["/sys", "/sys"]]) {
      expect(messages([{ type: "file", name: "a", path, content: "" }])).toEqual([
        `file:a has an invalid \`path\`: must not be in ${folder}: the kernel's file system there holds its settings, not files tend can replace (use sysctl.d, udev rules or tmpfiles.d)`,
      ]);
    }
    for (const path of ["/dev/shm/app.lock", "/process.conf", "/etc/sys/x", "/srv/proc"]) expect(messages([{ type: "file", name: "a", path, content: "" }]), path).toEqual([]);
  });

  it("refuses a distro unit named like a unit tend renders for a service or timer", () => {
    expect(messages([{ type: "service", name: "web", exec: "/opt/web" }, { type: "service", name: "tend-web" }])).toEqual([
      "service:tend-web names the unit tend-web, which tend renders for service:web",
    ]);
    expect(messages([{ type: "timer", name: "gc", exec: "/gc", schedule: "@daily" }, { type: "service", name: "tend-gc.timer" }])[0]).toContain("which tend renders for timer:gc");
  });

  it("refuses a file in tend's own state, journal, backup or lock folders", () => {
    const reserved = ["/var/lib/tend", "/run/tend"];
    for (const path of ["/var/lib/tend/state.json", "/var/lib/tend/backups/x", "/run/tend/user-1000.lock"]) {
      expect(() => validateSpec([{ type: "file", name: "x", path, content: "" }], () => ({}), { reserved })).toThrow(`${path} is inside`);
    }
    expect(validateSpec([{ type: "file", name: "x", path: "/var/lib/tender", content: "" }], () => ({}), { reserved })).toHaveLength(1);
  });
});

describe("validateSpec: after across scopes", () => {
  it("refuses a user service ordered after a system service, and the other way", () => {
    expect(messages([{ type: "service", name: "sysx", exec: "/x" }, { type: "service", name: "mine", exec: "/y", user: true, after: ["sysx"] }])).toEqual([
      "service:mine has an invalid `after`: names service:sysx, a system service, and service:mine is a user service; no init orders services across scopes (a user's manager cannot wait for the system's, nor the other way)",
    ]);
    expect(messages([{ type: "service", name: "u", exec: "/x", user: true }, { type: "service", name: "s", exec: "/y", after: ["u"] }])[0]).toContain("names service:u, a user service");
    expect(messages([{ type: "service", name: "a", exec: "/x", user: true }, { type: "service", name: "b", exec: "/y", user: true, after: ["a"] }])).toEqual([]);
  });
});

describe("validateSpec: after a service kept stopped", () => {
  const stopped = { type: "service", name: "db", exec: "/db", desired: { state: "stopped", enabled: false } };
  it("refuses a running service ordered after one the spec keeps stopped, on every init", () => {
    expect(messages([stopped, { type: "service", name: "web", exec: "/web", after: ["db"] }])).toEqual([
      "service:web has an invalid `after`: names service:db, which the spec keeps stopped, while service:web is to run: `after` is what must start first, and it never does (runit and s6-rc would never start service:web, dinit would start service:db against its desired state)",
    ]);
  });

  it("takes it when both are kept stopped, or the first one runs", () => {
    expect(messages([stopped, { type: "service", name: "web", exec: "/web", after: ["db"], desired: { state: "stopped", enabled: true } }])).toEqual([]);
    expect(messages([{ ...stopped, desired: { state: "running", enabled: false } }, { type: "service", name: "web", exec: "/web", after: ["db"] }])).toEqual([]);
  });
});

describe("validateSpec: bytes no init can carry", () => {
  it("refuses a NUL in a file's content and an exec that starts like an option", () => {
    expect(messages([{ type: "file", name: "f", path: "/etc/f", content: "a\u0000b" }])).toEqual(["file:f has an invalid `content`: must not hold a NUL byte"]);
    expect(messages([{ type: "service", name: "s", exec: "-/bin/false" }])).toEqual(["service:s has an invalid `exec`: must not start with `-`"]);
    expect(messages([{ type: "service", name: "s", exec: "/bin/x", systemd: { "User=root\nX": "1" } }])[0]).toContain("must be a [Service] directive name");
  });
});

describe("validateSpec: references across scopes", () => {
  const db = { type: "service", name: "db", exec: "/db" };
  const conf = { type: "file", name: "conf", path: "/home/alice/.config/app.conf", content: "x\n" };
  const app = (fields: Record<string, unknown>) => ({ type: "service", name: "app", exec: "/app", user: true, ...fields });
  it("refuses a restart or reload that one scope's change would ask of the other's service: no run would ever do it", () => {
    expect(messages([db, app({ restartOn: ["Service[db]"] })])).toEqual([
      "service:app has an invalid `restartOn`: names service:db, a system service, and service:app is a user service: each scope is applied by a run of its own, so a change to service:db would never restart service:app",
    ]);
    expect(messages([{ ...db, reloadOn: ["Service[app]"] }, app({})])).toEqual([
      "service:db has an invalid `reloadOn`: names service:app, a user service, and service:db is a system service: each scope is applied by a run of its own, so a change to service:app would never reload service:db",
    ]);
    expect(messages([{ type: "package", name: "syncthing" }, app({ restartOn: ["Package[syncthing]"] })])).toEqual([
      "service:app has an invalid `restartOn`: names package:syncthing, and service:app is a user service: packages are the system run's, and a user's run never sees one change, so it would never restart service:app",
    ]);
  });

  it("refuses a system resource naming a File that a user service names, which the user's run writes", () => {
    expect(messages([conf, { ...db, requires: ["File[conf]"] }, app({ restartOn: ["File[conf]"] })])).toEqual([
      "service:db has an invalid `requires`: names file:conf, which service:app names too: a File a user service or timer names is written by that user's run, and service:db, the system's, would never see it",
    ]);
  });

  it("takes what the runs can do: a user service requiring a system service or a package (the system run goes first), and restarting on its own File", () => {
    expect(messages([db, { type: "package", name: "syncthing" }, conf, app({ requires: ["Service[db]", "Package[syncthing]"], restartOn: ["File[conf]"] })])).toEqual([]);
    expect(messages([db, conf, { ...db, name: "web", restartOn: ["File[conf]", "Service[db]"] }])).toEqual([]);
  });
});

describe("validateSpec: requiring a package the spec removes", () => {
  it("refuses it: the resource would be applied after the removal, without the package", () => {
    const gone = { type: "package", name: "nginx", state: "absent" };
    expect(messages([gone, { type: "service", name: "web", exec: "/usr/sbin/nginx", requires: ["Package[nginx]"] }])).toEqual([
      "service:web has an invalid `requires`: names package:nginx, which the spec removes (state absent): service:web would be applied after its removal, without it",
    ]);
    expect(messages([{ ...gone, state: "present" }, { type: "service", name: "web", exec: "/usr/sbin/nginx", requires: ["Package[nginx]"] }])).toEqual([]);
  });
});
