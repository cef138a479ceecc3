import type { RebootOptions, TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, planSpec } from "./apply-spec.js";
import { livePids } from "./exec-forms.js";
import { doc, NOTHING } from "./spec-documents.js";

const program = (name: string) => `exec: /opt/demo/bin/demo ${name}\nrestart: always`;
/** Enabled and running: comes back after a reboot. */
const ON = doc(`type: Service\nname: boot-on\n${program("boot-on")}`);
/** A user service of alice's, enabled and running: `name` is its DEMO argument. */
export const bootUserService = (name: string) => doc(`type: Service\nname: ${name}\nuser: true\n${program(name)}`);
/** A system service running but not enabled, as the spec asks. */
export const bootDisabledService = (name: string) => doc(`type: Service\nname: ${name}\n${program(name)}\ndesired: {state: running, enabled: false}`);
/** Running but not enabled, as the spec asks: runs now, gone after a reboot. */
const OFF = bootDisabledService("boot-off");

/** One more way, particular to an init, that a service runs now and does not come back. */
export interface BootCase {
  /** The service's name (one more DEMO service, `name` its argument). */
  name: string;
  /** The spec documents that declare it (in alice's scope when `user`). */
  doc: string;
  user?: boolean;
  /** Done after the apply, while it runs: what keeps it from coming back. */
  breakBoot?: () => Promise<unknown>;
  /** What the prediction's reason must say. */
  why: string;
  /** The plan's warning for it, when not `runs now, but would not start after a reboot: <why>`. */
  planSays?: string;
  /** After the reboot: undo breakBoot for the tests that follow (before its removal). */
  restore?: () => Promise<unknown>;
}

export interface BootTruthOptions {
  specPath: string;
  /** The rest of the system spec, left as it was. */
  base: string[];
  /** The reason the init gives for the running-but-not-enabled service. */
  offWhy: string;
  /** Runs tend for alice's scope, as the suite does (as root with `--user alice`, or as alice). */
  userTend?: (args: string[]) => Promise<string>;
  cases?: BootCase[];
  reboot?: RebootOptions;
}

interface Observed {
  key: string;
  state?: string;
  atBoot?: { starts: boolean; why?: string };
}

/**
 * Boot truth on a real init (issue 18 item 4): apply a mix (enabled and running; running but not
 * enabled; the init's own cases, such as a user service nothing starts at boot), record what
 * `tend observe --json` predicts, check plan warns about each service that would not come back,
 * reboot the host, then compare what runs (the process table, not the init) with the prediction
 * made before the reboot. Leaves the host as `base` alone declares it.
 */
export async function proveBootTruth(host: TestHost, options: BootTruthOptions): Promise<void> {
  const cases = options.cases ?? [];
  const userSpec = `${options.specPath.replace(/\.yaml$/, "")}-user.yaml`;
  const systemDocs = [ON, OFF, ...cases.filter((c) => !c.user).map((c) => c.doc)];
  const userDocs = cases.filter((c) => c.user).map((c) => c.doc);
  await applySpec(host, options.specPath, [...options.base, ...systemDocs]);
  if (userDocs.length > 0) {
    await host.writeFile(userSpec, userDocs.join("---\n"));
    await options.userTend!(["apply", "-f", userSpec]);
  }
  for (const c of cases) await c.breakBoot?.();
  const names = ["boot-on", "boot-off", ...cases.map((c) => c.name)];
  for (const name of names) await host.waitFor(async () => (await livePids(host, name)).length === 1, { what: `${name} runs`, timeoutMs: 20_000 });

  // what plan says before the reboot: warnings, never changes
  const systemPlan = await planSpec(host, options.specPath, 0);
  expect(systemPlan).toContain("  ! service:boot-off warning: desired running but not enabled: it runs after this apply, but would not start after a reboot\n");
  expect(systemPlan).not.toContain("service:boot-on warning");
  const plans = userDocs.length > 0 ? systemPlan + (await options.userTend!(["plan", "-f", userSpec, "--detailed-exitcode"])) : systemPlan;
  for (const c of cases) expect(plans).toContain(`  ! service:${c.name} warning: ${c.planSays ?? `runs now, but would not start after a reboot: ${c.why}`}\n`);

  // the prediction, recorded before the reboot
  const observed = [...(await observe(host, ["observe", "-f", options.specPath, "--json"]))];
  if (userDocs.length > 0) observed.push(...parseObserve(await options.userTend!(["observe", "-f", userSpec, "--json"])));
  const predicted = new Map(observed.filter((o) => names.includes(o.key.slice("service:".length))).map((o) => [o.key, o]));
  expect(predicted.get("service:boot-on")).toMatchObject({ state: "running", atBoot: { starts: true } });
  expect(predicted.get("service:boot-off")).toMatchObject({ state: "running", atBoot: { starts: false, why: options.offWhy } });
  for (const c of cases) expect(predicted.get(`service:${c.name}`)).toMatchObject({ state: "running", atBoot: { starts: false, why: c.why } });
  const text = await host.expectTend(["observe", "-f", options.specPath, "service:boot-off"]);
  expect(text).toContain(`  at boot  does not start: ${options.offWhy} (differs from now: running)\n`);

  // reboot; a pid logged before it may be reused after, so only starts after it count
  await host.mustSh(`rm -f ${names.map((n) => `/var/tmp/demo-${n}`).join(" ")}`);
  await host.reboot(options.reboot);
  await host.waitFor(async () => (await livePids(host, "boot-on")).length === 1, { what: "boot-on runs after the reboot", timeoutMs: 30_000 });
  // give whatever boot would start the time a runsvdir scan takes
  await new Promise((resolve) => setTimeout(resolve, 7_000));
  const after = Object.fromEntries(await Promise.all(names.map(async (name) => [`service:${name}`, (await livePids(host, name)).length > 0] as const)));
  const before = Object.fromEntries(names.map((name) => [`service:${name}`, predicted.get(`service:${name}`)!.atBoot!.starts]));
  expect(after).toEqual(before);

  for (const c of cases) await c.restore?.();
  if (userDocs.length > 0) {
    await host.writeFile(userSpec, NOTHING);
    await options.userTend!(["apply", "-f", userSpec]);
  }
  await applySpec(host, options.specPath, options.base);
  for (const name of names) expect(await livePids(host, name)).toEqual([]);
}

async function observe(host: TestHost, args: string[]): Promise<Observed[]> {
  return parseObserve(await host.expectTend(args));
}

function parseObserve(output: string): Observed[] {
  const document = JSON.parse(output) as { result: { resources: Observed[] } };
  return document.result.resources;
}
