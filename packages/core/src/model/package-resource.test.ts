import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TendError, TendErrors } from "../errors/tend-error.js";
import { inScope } from "../session/in-scope.js";
import { loadSpec } from "../spec/load-spec.js";
import { pkg } from "./builders.js";
import { dependenciesOf, validateSpec } from "./validate-spec.js";

const HOST = { name: "h", init: "runit", os: "linux", arch: "x64", user: "root", home: "/root" };

function problems(raw: unknown[]): { message: string; resource?: string; field?: string }[] {
  try {
    validateSpec(raw);
    return [];
  } catch (error) {
    const all = error instanceof TendErrors ? error.errors : TendError.isInstance(error) ? [error] : [];
    if (all.length === 0) throw error;
    return all.map((e) => ({ message: e.message, resource: e.location.resource, field: e.location.field }));
  }
}

describe("the package resource", () => {
  it("takes a name, a state (present, absent, latest) and an exact version", () => {
    expect(
      validateSpec([
        pkg("nginx"),
        pkg("libstdc++6", { version: "12.2.0-14" }),
        pkg("tmux", { state: "latest" }),
        pkg("telnet", { state: "absent" }),
        pkg("bash", { state: "present", version: "1:5.2.15-2+b2" }),
      ]).map((r) => `${r.type}:${r.name}`),
    ).toEqual(["package:nginx", "package:libstdc++6", "package:tmux", "package:telnet", "package:bash"]);
  });

  it("is the `package` YAML type (Datum's `Package`) and Datum's example resolves its `Package[nginx]`", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-pkg-"));
    const file = join(dir, "tend.yaml");
    await writeFile(
      file,
      [
        "tend: v1alpha1\ntype: Package\nname: nginx\n",
        "tend: v1alpha1\ntype: File\nname: nginx-config\npath: /etc/nginx/nginx.conf\ncontent: x\nrequires: [package:nginx]\n",
        "tend: v1alpha1\ntype: Service\nname: nginx\nrequires:\n  - Package[nginx]\n  - File[nginx-config]\nrestartOn:\n  - File[nginx-config]\ndesired:\n  state: running\n  enabled: true\n",
      ].join("---\n"),
    );
    const spec = await loadSpec(file, HOST);
    expect(spec.resources.map((r) => `${r.type}:${r.name}`)).toEqual(["package:nginx", "file:nginx-config", "service:nginx"]);
    expect(dependenciesOf(spec.resources[2]!)).toEqual(["package:nginx", "file:nginx-config"]);
  });

  it("shares no name space with services: a package and the distro service it ships may both be called nginx", () => {
    expect(problems([pkg("nginx"), { type: "service", name: "nginx" }, { type: "service", name: "web", exec: "/usr/sbin/nginx", requires: ["Package[nginx]"] }])).toEqual([]);
    expect(problems([pkg("nginx"), pkg("nginx")])).toEqual([{ message: "package:nginx is declared twice", resource: "package:nginx", field: "name" }]);
  });

  it("names the resource and the field of every bad value", () => {
    expect(problems([pkg("my package")])).toEqual([
      { message: "package:my package has an invalid `name`: may only hold letters, digits and `+ . _ -`, and must start with a letter or digit", resource: "package:my package", field: "name" },
    ]);
    expect(problems([pkg("nginx", { version: ">= 1.2" })])[0]).toMatchObject({ resource: "package:nginx", field: "version" });
    expect(problems([pkg("nginx", { version: "1.2\nx" })])[0]).toMatchObject({ resource: "package:nginx", field: "version" });
    expect(problems([{ type: "package", name: "nginx", state: "installed" }])[0]).toMatchObject({ resource: "package:nginx", field: "state" });
    expect(problems([{ type: "package", name: "nginx", exec: "x" }])).toEqual([
      { message: "package:nginx has an invalid `exec`: is not a field of package", resource: "package:nginx", field: "exec" },
    ]);
    expect(problems([{ type: "package", name: "nginx", verison: "1" }])[0]!.message).toContain("did you mean `version`?");
  });

  it("refuses a version with state latest or absent, which would ask for two things", () => {
    expect(problems([pkg("nginx", { state: "latest", version: "1.2-1" })])).toEqual([
      {
        message: "package:nginx has an invalid `version`: pins one version, and state latest follows the newest the package lists offer; keep one of the two",
        resource: "package:nginx",
        field: "version",
      },
    ]);
    expect(problems([pkg("nginx", { state: "absent", version: "1.2-1" })])[0]).toMatchObject({ field: "version", message: expect.stringContaining("state absent installs no version") });
  });

  it("orders what requires it, and a reference to an undeclared package is still an unknown reference", () => {
    expect(problems([{ type: "service", name: "web", exec: "/usr/sbin/nginx", restartOn: ["package:nginx"] }])).toEqual([
      { message: "service:web lists `package:nginx` in restartOn, but the spec declares no such resource", resource: "service:web", field: "restartOn" },
    ]);
  });

  it("belongs to the system scope", () => {
    expect(inScope(pkg("nginx"), { kind: "system" })).toBe(true);
    expect(inScope(pkg("nginx"), { kind: "user", user: "alice", uid: 1000, gid: 1000, home: "/home/alice" })).toBe(false);
  });
});
