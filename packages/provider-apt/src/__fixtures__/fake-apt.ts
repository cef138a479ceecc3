import { RecordingRunner } from "@tend/testkit";

/**
 * dpkg and apt in memory, behind a recording runner: `installed` is dpkg's database, `lists` the
 * versions the apt lists offer per package (newest first; the first is the candidate). apt-get
 * install `name` / `name=version` and remove change `installed`; a package in `broken` makes any
 * apt-get naming it fail, as a failing postinst would.
 */
export class FakeApt {
  readonly runner = new RecordingRunner();
  constructor(
    readonly installed = new Map<string, string>(),
    readonly lists = new Map<string, string[]>(),
    readonly broken = new Set<string>(),
    /** apt-get exits 0 and leaves these alone (a hold, a policy that says no). */
    readonly inert = new Set<string>(),
  ) {
    this.runner.on("dpkg-query", (command) => {
      const names = command.argv.filter((a, i) => i > 0 && !a.startsWith("-"));
      const lines = names.filter((n) => this.installed.has(n) || this.lists.has(n)).map((n) => (this.installed.has(n) ? `${n}\t${this.installed.get(n)}\tii \n` : `${n}\t\tun \n`));
      const unknown = names.filter((n) => !this.installed.has(n) && !this.lists.has(n));
      return { stdout: lines.join(""), stderr: unknown.map((n) => `dpkg-query: no packages found matching ${n}\n`).join(""), exitCode: unknown.length > 0 ? 1 : 0 };
    });
    this.runner.on("apt-cache", (command) => {
      const names = command.argv.slice(command.argv.indexOf("policy") + 1);
      const blocks = names.flatMap((n) => {
        const offered = this.lists.get(n);
        const have = this.installed.get(n);
        if (!offered && !have) return [];
        const versions = [...new Set([...(offered ?? []), ...(have ? [have] : [])])];
        const table = versions.map((v) => `${v === have ? " ***" : "    "} ${v} 500\n        500 file:/srv/repo ./ Packages\n`).join("");
        return [`${n}:\n  Installed: ${have ?? "(none)"}\n  Candidate: ${offered?.[0] ?? have}\n  Version table:\n${table}`];
      });
      return { stdout: blocks.join("") };
    });
    this.runner.on("apt-get", (command) => {
      const verb = command.argv[1];
      const args = command.argv.slice(2).filter((a, i, all) => !a.startsWith("-") && all[i - 1] !== "-o");
      for (const arg of args) {
        const [name = ""] = arg.split("=");
        if (this.broken.has(name)) return { exitCode: 100, stderr: `E: Sub-process /usr/bin/dpkg returned an error code (1) for ${name}\n` };
        if (verb === "install" && !this.lists.has(name)) return { exitCode: 100, stderr: `E: Unable to locate package ${name}\n` };
      }
      for (const arg of args) {
        const [name = "", version] = arg.split("=");
        if (this.inert.has(name)) continue;
        if (verb === "install") this.installed.set(name, version ?? this.lists.get(name)![0]!);
        else this.installed.delete(name);
      }
      return { stdout: "" };
    });
  }

  /** The commands run, by program. */
  count(program: string): number {
    return this.runner.calls.filter((c) => c.argv[0] === program).length;
  }
}
