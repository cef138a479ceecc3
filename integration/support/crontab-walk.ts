import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { planSpec } from "./apply-spec.js";
import { seededGenerator } from "./seeded-generator.js";
import { doc, spec } from "./spec-documents.js";

/** One of the walk's timers of `user`, as the spec has it now. */
interface WalkTimer {
  name: string;
  present: boolean;
  schedule: string;
  /** Its command's version: a new one is a changed job line. */
  version: number;
}

const SCHEDULES = ["* * * * *", "*/5 * * * *", "0 3 * * *", "15 4 * * 1"];

const timerDocument = (t: WalkTimer): string => doc(`type: Timer\nname: ${t.name}\nuser: true\nexec: /bin/true ${t.name}-v${t.version}\nschedule: "${t.schedule}"`);

/** One of tend's blocks in a crontab: `# BEGIN tend:NAME` to `# END tend:NAME`, with both lines. */
const BLOCK_SOURCE = String.raw`^# BEGIN tend:(\S+)\n[\s\S]*?^# END tend:\1\n`;
const BLOCK = new RegExp(BLOCK_SOURCE, "gm");

function blocksOf(text: string): Map<string, string> {
  return new Map([...text.matchAll(BLOCK)].map((match) => [match[1]!, match[0]]));
}

/** The crontab without tend's blocks: the user's own bytes. */
const ownBytes = (text: string): string => text.replace(BLOCK, "");

/** The crontab as units: tend's blocks whole, every other line alone (its newline kept). */
function unitsOf(text: string): string[] {
  const units: string[] = [];
  let rest = text;
  while (rest !== "") {
    const block = new RegExp(BLOCK_SOURCE, "m").exec(rest);
    if (block?.index === 0) {
      units.push(block[0]);
      rest = rest.slice(block[0].length);
      continue;
    }
    const end = rest.indexOf("\n");
    const line = end === -1 ? rest : rest.slice(0, end + 1);
    units.push(line);
    rest = rest.slice(line.length);
  }
  return units;
}

/**
 * A random walk of `steps` edits of `user`'s crontab, from both sides, the same walk for the same
 * `seed`: tend's spec adds or removes one of three user timers, or changes one's schedule or
 * command; the user (through `crontab -u USER FILE`, as root) adds a line of their own at any
 * place between lines and blocks, deletes one of theirs, edits a line of one of tend's blocks, or
 * deletes a whole block. After each edit, `apply --user USER` succeeds, the next plan is clean,
 * every byte of the user's own is where it was before the apply, and the crontab holds exactly
 * one block per timer the spec has, with its schedule and command. A failure names the seed, the
 * step and the edit.
 */
export async function proveCrontabWalk(host: TestHost, path: string, user: string, seed: number, steps: number): Promise<void> {
  const pick = seededGenerator(seed);
  const timers: WalkTimer[] = ["cw0", "cw1", "cw2"].map((name) => ({ name, present: false, schedule: SCHEDULES[0]!, version: 0 }));
  const crontab = async () => {
    const listed = await host.exec(["crontab", "-u", user, "-l"]);
    return listed.exitCode === 0 ? listed.stdout : "";
  };
  const install = async (text: string) => {
    await host.writeFile("/tmp/crontab-walk", text);
    await host.mustExec(["crontab", "-u", user, "/tmp/crontab-walk"]);
  };
  let own = 0;
  for (let step = 1; step <= steps; step += 1) {
    let edit: string;
    const text = await crontab();
    if (pick(5) < 3) {
      const t = timers[pick(timers.length)]!;
      const kind = t.present ? pick(3) : 0;
      if (kind === 0) {
        t.present = !t.present;
        edit = `${t.name} ${t.present ? "added" : "removed"}`;
      } else if (kind === 1) {
        t.schedule = SCHEDULES.filter((s) => s !== t.schedule)[pick(SCHEDULES.length - 1)]!;
        edit = `${t.name} schedule ${t.schedule}`;
      } else {
        t.version += 1;
        edit = `${t.name} command v${t.version}`;
      }
    } else {
      const units = unitsOf(text);
      const blocks = units.filter((unit) => unit.startsWith("# BEGIN tend:"));
      const mine = units.filter((unit) => unit.includes("own-walk-"));
      const kind = pick(4);
      if (kind === 0 || (kind === 1 && mine.length === 0) || (kind >= 2 && blocks.length === 0)) {
        // Not after a last line without a newline: crontab would join the two.
        const places = units.length + (units.at(-1)?.endsWith("\n") === false ? 0 : 1);
        const at = pick(places);
        own += 1;
        const line = pick(2) === 0 ? `# own-walk-${own}\n` : `*/${own + 1} * * * * echo own-walk-${own} >/dev/null\n`;
        units.splice(at, 0, line);
        edit = `${user} adds \`${line.trimEnd()}\` at unit ${at}`;
      } else if (kind === 1) {
        const gone = mine[pick(mine.length)]!;
        units.splice(units.indexOf(gone), 1);
        edit = `${user} deletes \`${gone.trimEnd()}\``;
      } else if (kind === 2) {
        const block = blocks[pick(blocks.length)]!;
        units[units.indexOf(block)] = block.replace(/\n(?!# )(\S+ \S+ \S+ \S+ \S+) /, "\n0 0 1 1 * ");
        edit = `${user} edits the job line of ${block.split("\n")[0]}`;
      } else {
        const block = blocks[pick(blocks.length)]!;
        units.splice(units.indexOf(block), 1);
        edit = `${user} deletes ${block.split("\n")[0]}`;
      }
      await install(units.join(""));
    }
    const where = `seed ${seed}, step ${step}: ${edit}`;
    const before = await crontab();
    await host.writeFile(path, spec(...timers.filter((t) => t.present).map(timerDocument)));
    await host.expectTend(["apply", "-f", path, "--user", user]).catch((error: unknown) => {
      throw new Error(`${where}: apply failed\n${String(error)}`);
    });
    await planSpec(host, path, 0, "--user", user).catch((error: unknown) => {
      throw new Error(`${where}: the next plan is not clean\n${String(error)}`);
    });
    const after = await crontab();
    expect(ownBytes(after), `${where}: ${user}'s own bytes`).toBe(ownBytes(before));
    const blocks = blocksOf(after);
    const present = timers.filter((t) => t.present);
    expect([...blocks.keys()].sort(), `${where}: tend's blocks`).toEqual(present.map((t) => t.name));
    for (const t of present) {
      const job = blocks.get(t.name)!.split("\n")[1]!;
      expect(job.startsWith(`${t.schedule} `) && job.endsWith(`/bin/true ${t.name}-v${t.version}`), `${where}: ${t.name}'s job line \`${job}\``).toBe(true);
    }
  }
}
