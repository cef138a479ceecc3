import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Command, CommandResult } from "@tend/core/contract";
import { RecordingRunner } from "@tend/testkit";

/**
 * s6 with s6-rc as far as tend asks it, for applies through the core on a temp folder standing
 * for `/`: s6-rc-compile makes the database folder and remembers the longruns of the source
 * folder, s6-rc-update makes them the live ones, `s6-rc change` brings them up and down, and the
 * shell loops of s6-svstat and s6-svc answer for each directory. Every command is recorded.
 */
export class FakeS6 {
  /** Longruns of the live database, and those s6-rc considers up. */
  readonly live = new Set<string>();
  readonly up = new Set<string>();
  readonly runner: RecordingRunner;
  private readonly compiled = new Map<string, Set<string>>();

  constructor(private readonly root: string) {
    mkdirSync(join(root, "run/s6-rc"), { recursive: true });
    this.runner = new RecordingRunner()
      .on("s6-rc-compile", (command) => this.compile(command))
      .on("s6-rc-update", (command) => this.update(command))
      .on("s6-rc-db -b -l /run/s6-rc list services", () => ({ stdout: lines(this.live) }))
      .on("s6-rc -b -l /run/s6-rc -a list", () => ({ stdout: lines(this.up) }))
      // No service depends on another here: what -d brings down is what it names.
      .on((argv) => argv[0] === "s6-rc-db" && argv.includes("all-dependencies"), ({ argv }) => ({ stdout: lines(new Set(argv.slice(argv.indexOf("all-dependencies") + 1))) }))
      .on((argv) => argv[0] === "s6-rc" && argv.includes("change"), (command) => this.change(command))
      .on((argv) => argv[0] === "/bin/sh" && argv[2]!.includes("s6-svstat"), (command) => ({ stdout: command.argv.slice(4).map((dir) => this.svstat(dir)).join("") }))
      .on((argv) => argv[0] === "/bin/sh" && argv[2]!.includes("s6-svc"), (command) => ({ stdout: command.argv.slice(4).map((dir) => `ok ${dir}\n`).join("") }));
  }

  /** The recorded commands with the services they name elided, to compare batches of any size. */
  get shapes(): string[] {
    return this.runner.calls.map(({ argv }) => {
      if (argv[0] === "/bin/sh") return `${/s6-svstat|s6-svc [^"]*--/.exec(argv[2]!)![0]} …`;
      const change = argv.findIndex((word) => word === "change" || word === "all-dependencies");
      return (change >= 0 ? [...argv.slice(0, change + 1), "…"] : argv).join(" ").replaceAll(this.root, "ROOT");
    });
  }

  private compile({ argv }: Command): Partial<CommandResult> {
    const [, database, sources] = argv as [string, string, string];
    mkdirSync(database);
    const longruns = readdirSync(sources).filter((name) => existsSync(join(sources, name, "type")) && readFileSync(join(sources, name, "type"), "utf8") === "longrun\n");
    this.compiled.set(database, new Set(longruns));
    return {};
  }

  private update({ argv }: Command): Partial<CommandResult> {
    const database = this.compiled.get(join(this.root, argv.at(-1)!))!;
    for (const name of [...this.live]) {
      if (database.has(name)) continue;
      this.live.delete(name);
      this.up.delete(name);
    }
    for (const name of database) this.live.add(name);
    return {};
  }

  private change({ argv }: Command): Partial<CommandResult> {
    const names = argv.slice(argv.indexOf("change") + 1);
    const unknown = names.find((name) => !this.live.has(name));
    if (unknown) return { exitCode: 3, stderr: `s6-rc: fatal: ${unknown} is not a recognized identifier\n` };
    for (const name of names) {
      if (argv.includes("-u")) this.up.add(name);
      else this.up.delete(name);
    }
    return {};
  }

  private svstat(dir: string): string {
    const name = basename(dir);
    if (!this.live.has(name)) return `${dir} failed 1\n`;
    const up = this.up.has(name);
    return `${dir} ${up} ${up} true false ${up ? 1000 + [...this.live].indexOf(name) : -1} ${up ? -1 : 0} NA @400000006b10160e094c7e66 5\n`;
  }
}

function lines(names: Set<string>): string {
  return [...names].map((name) => `${name}\n`).join("");
}
