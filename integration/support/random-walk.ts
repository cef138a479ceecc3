import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, planSpec } from "./apply-spec.js";
import { demoLog } from "./demo-daemon.js";
import { hupPids, livePids } from "./exec-forms.js";
import { seededGenerator } from "./seeded-generator.js";
import { doc } from "./spec-documents.js";

/** One of the walk's services as the spec has it now. */
interface Walker {
  name: string;
  present: boolean;
  state: "running" | "stopped";
  enabled: boolean;
  restart: "always" | "on_failure";
  /** Its GREETING: a new one is a changed definition, which restarts it when it runs. */
  greeting: number;
  /** A service before it in the list that it comes after (so the spec never has a cycle). */
  after?: string;
  /** What a change of the walk's File does to it. */
  on: "nothing" | "restartOn" | "reloadOn";
}

/** What the process table said of a service after the last step: its one pid and the HUPs that pid had logged. */
interface Seen {
  pid: string;
  hups: number;
}

/** The File the walk's services may restart or reload on: in the user's home in her scope. */
const confOf = (user: string | undefined) => ({ name: "rwconf", path: user ? `/home/${user}/.config/rw/conf` : "/etc/rw/conf" });

const confDocument = (conf: { name: string; path: string }, version: number): string => doc(`type: File\nname: ${conf.name}\npath: ${conf.path}\ncontent: "c${version}\\n"`);

function document(w: Walker, user: string | undefined): string {
  const trigger = w.on === "nothing" ? "" : `\n${w.on}: ["File[${confOf(user).name}]"]`;
  return doc(
    `type: Service\nname: ${w.name}\nexec: /opt/demo/bin/demo ${w.name}\nrestart: ${w.restart}\nreloadSignal: HUP\nenv:\n  GREETING: g${w.greeting}\n` +
      `desired: {state: ${w.state}, enabled: ${w.enabled}}\nverify: {settle: 0.5}${w.after ? `\nafter: [${w.after}]` : ""}${trigger}${user ? "\nuser: true" : ""}`,
  );
}

/**
 * An admin's edit or deletion of the service's definition file, stop, disable, or SIGKILL of its
 * program: all but the last are drift the next plan must show; a killed program may be back
 * already, its supervisor's doing.
 */
async function byHand(host: TestHost, hand: NonNullable<WalkOptions["byHand"]>, name: string, kind: number, where: string, plan: () => Promise<string>): Promise<void> {
  const unit = `tend-${name}`;
  const as = hand.as ? { user: hand.as } : {};
  if (kind === HAND_KILL) {
    const [pid] = await livePids(host, name);
    await host.mustExec(["kill", "-KILL", pid!]);
    await host.waitFor(async () => !(await livePids(host, name)).includes(pid!), { timeoutMs: 10_000, what: `${where}${name}'s program to die` });
    return;
  }
  if (kind === HAND_EDIT) await host.mustSh(`echo '# edited by hand' >> ${hand.definition(unit)}`, as);
  else if (kind === HAND_DELETE) await host.mustExec(["rm", hand.definition(unit)], as);
  else if (kind === HAND_DISABLE) await host.mustExec(hand.disable!(unit), as);
  else await host.mustExec(hand.stop(unit), as);
  await plan().catch((error: unknown) => {
    throw new Error(`${where}the plan does not see it\n${String(error)}`);
  });
}

/** The user's service that keeps the File in her run (see WalkOptions.user). */
const anchorDocument = (conf: { name: string }): string =>
  doc(`type: Service\nname: urwanchor\nexec: /opt/demo/bin/demo urwanchor\nrestart: always\nuser: true\nrequires: ["File[${conf.name}]"]\nverify: {settle: 0.5}`);

/** Applies the spec as root for the system, then, given `--user NAME`, for her scope too: both outputs. */
async function applyBoth(host: TestHost, path: string, docs: string[], scoped: string[]): Promise<string> {
  const system = await applySpec(host, path, docs);
  return scoped.length === 0 ? system : system + (await host.expectTend(["apply", "-f", path, ...scoped]));
}

/**
 * The files under a scope's `backups/` folder (as `./STAMP/file/PATH`), less the copies apply kept
 * of the walk's definitions an admin edited by hand (`tend-rw0`, `tend-urw1`, …), each of which
 * must hold the admin's line: what the rest of a suite left there.
 */
export async function withoutWalkCopies(host: TestHost, backups: string): Promise<string[]> {
  const found = (await host.sh(`cd ${backups} 2>/dev/null && find . -type f`)).stdout.split("\n").filter(Boolean);
  const walk = found.filter((path) => /\/tend-u?rw\d/.test(path));
  for (const copy of walk) expect(await host.readFile(`${backups}/${copy.slice(2)}`), copy).toContain("# edited by hand\n");
  return found.filter((path) => !walk.includes(path));
}

/** How many HUPs PID logged in a DEMO log. */
const hupsOf = (log: string, pid: string): number => hupPids(log).filter((received) => received === pid).length;

/** What an init does beyond the edit itself. */
export interface WalkOptions {
  /**
   * A restart of a service may restart the running services that come after it: on dinit `after`
   * is `depends-on`, and `dinitctl restart --force` restarts the dependents too; on s6-rc it is
   * `dependencies.d`, and s6-rc-update restarts what depends on a service it restarts.
   */
  dependentsRestart?: boolean;
  /**
   * What an admin does by hand between applies, in this init's terms (`unit` is `tend-rw0`): the
   * file that holds a service's definition, the command that stops it, and the one that disables
   * it at boot (where the init has one). With it the walk also edits or deletes that file, stops a
   * running service, SIGKILLs its program, or disables an enabled one, and the next apply must put
   * the spec back. `as` runs the commands and edits as that user (the walk in her scope).
   */
  byHand?: { definition: (unit: string) => string; stop: (unit: string) => string[]; disable?: (unit: string) => string[]; as?: string };
  /**
   * Walks this user's scope: her services (`user: true`, named urw0…urw2) and a File in her
   * home, each step applied and planned as root for the system, then with `--user USER`. A fourth
   * service of hers, urwanchor, always requires the File, so that her run writes it (a File in a
   * home that no user service names is the system run's).
   */
  user?: string;
}

/** The edits an admin makes by hand, after the spec's seven kinds. */
const HAND_EDIT = 7;
const HAND_STOP = 8;
const HAND_KILL = 9;
const HAND_DELETE = 10;
const HAND_DISABLE = 11;
const HAND_WORDS: Record<number, string> = {
  [HAND_EDIT]: "definition edited",
  [HAND_STOP]: "stopped",
  [HAND_KILL]: "program killed",
  [HAND_DELETE]: "definition deleted",
  [HAND_DISABLE]: "disabled at boot",
};

/**
 * The walk every init's suite takes: seed 7 and 30 edits (every kind of edit, an admin's
 * included), unless `TEND_IT_WALK_SEED` and `TEND_IT_WALK_STEPS` say otherwise (to look for more
 * by hand).
 */
export const WALK = { seed: Number(process.env.TEND_IT_WALK_SEED ?? 7), steps: Number(process.env.TEND_IT_WALK_STEPS ?? 30) };

/** What one walk may take: each edit starts or restarts at most a few services, with a 0.5 s settle window. */
export const WALK_TIMEOUT_MS = WALK.steps * 10_000 + 60_000;

/**
 * A random walk of `steps` edits of a spec of three services (DEMO, installed as
 * /opt/demo/bin/demo) and one File, the same walk for the same `seed`: each edit adds or removes
 * a service, sets its `desired` state and enablement, changes its definition (its env), its
 * restart policy, the service it comes after, or whether it restarts or reloads (HUP) on the
 * File, or changes the File. After each apply (which must succeed), the next plan has nothing to
 * do, the process table holds one program for each service that is to run and none for the others
 * (removed ones included), and one that runs runs its current definition. A service that ran
 * before the edit and still runs keeps its process unless its own document changed, or the File
 * changed and it restarts on it, or (`dependentsRestart`) the init restarted it with the service
 * it comes after, which tend's output must say; one that reloads on it got exactly one HUP. With
 * `byHand`, an edit may instead be an admin's, the spec left as it is (see byHand): the next
 * apply must undo it, with the same checks after it. A failure names the seed, the step and the
 * edit, and the walk so far is in the spec at `path`.
 */
export async function proveRandomWalk(host: TestHost, path: string, base: string[], seed: number, steps: number, options: WalkOptions = {}): Promise<void> {
  const pick = seededGenerator(seed);
  const user = options.user;
  const conf = confOf(user);
  const scoped = user ? ["--user", user] : [];
  const walkers: Walker[] = [0, 1, 2].map((i) => ({ name: `${user ? "u" : ""}rw${i}`, present: false, state: "running", enabled: true, restart: "always", greeting: 0, on: "nothing" }));
  const seen = new Map<string, Seen>();
  let greeting = 0;
  let version = 0;
  for (let step = 1; step <= steps; step += 1) {
    const w = walkers[pick(walkers.length)]!;
    const index = walkers.indexOf(w);
    const before = new Map(walkers.map((x) => [x.name, x.present ? document(x, user) : ""]));
    let edit: string;
    let kind = w.present ? pick(options.byHand ? 12 : 7) : 0;
    const runs = (x: Walker) => x.present && x.state === "running";
    if ((kind === HAND_STOP || kind === HAND_KILL) && !runs(w)) kind = HAND_EDIT;
    if (kind === HAND_DISABLE && (!w.enabled || !options.byHand?.disable)) kind = HAND_EDIT;
    if (kind === 0) {
      w.present = !w.present;
      edit = `${w.name} ${w.present ? "add" : "remove"}`;
    } else if (kind === 1) {
      [w.state, w.enabled] = [(["running", "stopped"] as const)[pick(2)]!, pick(2) === 1];
      edit = `${w.name} desired ${w.state}, enabled ${w.enabled}`;
    } else if (kind === 2) {
      w.greeting = greeting += 1;
      edit = `${w.name} greeting g${w.greeting}`;
    } else if (kind === 3) {
      w.restart = w.restart === "always" ? "on_failure" : "always";
      edit = `${w.name} restart ${w.restart}`;
    } else if (kind === 4) {
      const earlier = walkers.slice(0, index).filter((other) => other.present);
      w.after = w.after || earlier.length === 0 ? undefined : earlier[pick(earlier.length)]!.name;
      edit = `${w.name} after ${w.after ?? "nothing"}`;
    } else if (kind === 5) {
      w.on = (["nothing", "restartOn", "reloadOn"] as const).filter((on) => on !== w.on)[pick(2)]!;
      edit = `${w.name} ${w.on === "nothing" ? "neither restarts nor reloads on" : w.on} ${conf.name}`;
    } else if (kind === 6) {
      version += 1;
      edit = `${conf.name} content c${version}`;
    } else {
      edit = `${w.name} ${HAND_WORDS[kind]} by hand`;
    }
    // A service may come only after one the spec declares, and one that is to run only after one that runs too (cross-check.ts).
    for (const other of walkers) {
      const target = walkers.find((x) => x.name === other.after);
      if (target && (!target.present || (target.state === "stopped" && other.state === "running"))) other.after = undefined;
    }
    const where = `seed ${seed}, step ${step}: ${edit}`;
    const docs = [...(user ? [anchorDocument(conf)] : []), ...walkers.filter((x) => x.present).map((x) => document(x, user))];
    if (kind >= HAND_EDIT) await byHand(host, options.byHand!, w.name, kind, `${where}: `, () => planSpec(host, path, 2, ...scoped));
    const output = await applyBoth(host, path, [...base, confDocument(conf, version), ...docs], scoped).catch((error: unknown) => {
      throw new Error(`${where}: apply failed\n${String(error)}`);
    });
    for (const extra of user ? [[], scoped] : [[]]) {
      await planSpec(host, path, 0, ...extra).catch((error: unknown) => {
        throw new Error(`${where}: the next plan${extra.length > 0 ? ` (${extra.join(" ")})` : ""} is not clean\n${String(error)}`);
      });
    }
    expect(await host.mustExec(["cat", conf.path]), `${where}: ${conf.path}`).toBe(`c${version}\n`);
    /** The services whose process changed in this step (walkers come after earlier ones only, so one's are known before its dependents'). */
    const restarted = new Set<string>();
    for (const x of walkers) {
      const running = runs(x);
      // A killed program may be started again by its supervisor after tend saw it running.
      const live = kind === HAND_KILL && x === w ? await host.waitFor(async () => ((found) => found.length === 1 && found)(await livePids(host, x.name)), { timeoutMs: 10_000, what: `${where}: one ${x.name} again` }) : await livePids(host, x.name);
      expect(live, `${where}: live processes of ${x.name}`).toHaveLength(running ? 1 : 0);
      const last = seen.get(x.name);
      seen.delete(x.name);
      if (!running) continue;
      const pid = live[0]!;
      const log = await demoLog(host, x.name);
      expect(log.split("\n").find((line) => line.startsWith(`start ${pid} `)), `${where}: what ${x.name} runs`).toBe(`start ${pid} g${x.greeting}`);
      const fileChanged = kind === 6;
      if (last?.pid !== pid) restarted.add(x.name);
      const withItsDependency = options.dependentsRestart === true && x.after !== undefined && restarted.has(x.after);
      // By hand, the init may stop or restart others with it (dinit, s6-rc): their processes are not checked.
      const unchanged = kind < HAND_EDIT && last !== undefined && before.get(x.name) === document(x, user) && !(fileChanged && x.on === "restartOn");
      // One the init restarted with the service it comes after: tend said so, and verified it.
      if (unchanged && withItsDependency && pid !== last.pid) {
        expect(output, `${where}: tend's word that ${x.name} restarted with ${x.after}`).toMatch(new RegExp(`^service:${x.name}: restarted with service:u?rw\\d, which it comes after$`, "m"));
        expect(output, `${where}: ${x.name} verified`).toMatch(new RegExp(`^service:${x.name}: verified$`, "m"));
      }
      if (unchanged && !withItsDependency) {
        expect(pid, `${where}: ${x.name} kept its process`).toBe(last.pid);
        const reloaded = fileChanged && x.on === "reloadOn";
        // A signal is handled a moment after it is sent.
        const hups = reloaded
          ? await host.waitFor(
              async () => {
                const logged = hupsOf(await demoLog(host, x.name), pid);
                return logged > last.hups && logged;
              },
              { timeoutMs: 10_000, what: `${where}: ${x.name} to log its HUP` },
            )
          : hupsOf(log, pid);
        expect(hups, `${where}: the HUPs ${x.name} got`).toBe(last.hups + (reloaded ? 1 : 0));
        seen.set(x.name, { pid, hups });
        continue;
      }
      if (last && fileChanged && x.on === "restartOn") expect(pid, `${where}: ${x.name} restarted on ${conf.name}`).not.toBe(last.pid);
      seen.set(x.name, { pid, hups: hupsOf(log, pid) });
    }
  }
}
