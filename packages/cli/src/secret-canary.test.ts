import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tendInProcess as tend } from "./__fixtures__/tend-in-process.js";
import { imageRoot, withCron } from "./__fixtures__/image-root.js";
import { secretSpec } from "./__fixtures__/secret-spec.js";

// Canaries: values no output may hold. Each is the value of a variable whose name looks secret.
const SECRET = "Kx7-first-canary";
const EDITED = "Kx7-edited-canary";
const BY_HAND = "Kx7-by-hand-canary";
const TIMER = "Kx7-timer-canary";
const CANARY = /Kx7-/;

/** Where each init's rendering of the service holds its env (the file a hand edit goes into). */
const DEFINITION = { systemd: "etc/systemd/system/tend-db.service", runit: "etc/sv/tend-db/run", openrc: "etc/init.d/tend-db", dinit: "etc/dinit.d/tend-db" } as const;

describe("secret env values never reach tend's output", () => {
  it.each(Object.keys(DEFINITION) as (keyof typeof DEFINITION)[])(
    "on %s: not in validate, plan, plan --diff, apply, observe, nor any of their JSON, fresh, edited in the spec, edited by hand, or refused",
    async (init) => {
      const dir = await mkdtemp(join(tmpdir(), "tend-canary-"));
      const root = await imageRoot(dir, "root");
      await withCron(root);
      // dinit enables a service from its `boot` service's waits-for.d folder.
      await mkdir(join(root, "etc/dinit.d/boot.d"), { recursive: true });
      await writeFile(join(root, "etc/dinit.d/boot"), "type = internal\nwaits-for.d = boot.d\n");
      const first = join(dir, "first.yaml");
      const edited = join(dir, "edited.yaml");
      const refused = join(dir, "refused.yaml");
      await writeFile(first, secretSpec(SECRET, TIMER));
      await writeFile(edited, secretSpec(EDITED, TIMER.replace("timer", "timer-edited")));
      await writeFile(refused, secretSpec(`"${SECRET}\\nsecond line"`, TIMER));
      const on = ["--init", init, "--root", root];
      const runs: [string, { code: number; out: string }][] = [];
      const run = async (...argv: string[]) => {
        const result = await tend([...argv, ...on]);
        runs.push([argv.join(" "), result]);
        return result;
      };

      for (const command of [["validate"], ["validate", "--json"], ["plan"], ["plan", "--json"], ["plan", "--diff"], ["plan", "--diff", "--json"]]) await run(...command, "-f", first);
      expect((await run("apply", "--diff", "-f", first)).code).toBe(0);
      const definition = join(root, DEFINITION[init]);
      const written = await readFile(definition, "utf8");
      expect(written, "the canary is in the rendered file, so the runs below had it to leak").toContain(SECRET);
      for (const command of [["observe"], ["observe", "--json"], ["plan", "--diff"], ["apply", "--json"]]) await run(...command, "-f", first);

      await writeFile(definition, written.replace(SECRET, BY_HAND));
      for (const command of [["plan", "--diff"], ["plan", "--diff", "--json"]]) await run(...command, "-f", first);
      for (const command of [["plan"], ["plan", "--diff"], ["plan", "--diff", "--json"]]) await run(...command, "-f", edited);
      expect((await run("apply", "--diff", "--json-stream", "-f", edited)).code).toBe(0);
      expect(await readFile(definition, "utf8")).toContain(EDITED);
      expect((await run("validate", "-f", refused)).code).toBe(1);
      expect((await run("plan", "--json", "-f", refused)).code).toBe(1);

      const drift = runs.find(([argv, { out }]) => argv === "plan --diff -f " + first && out.includes("drifted"));
      expect(drift?.[1].out, "the hand edit was seen, and diffed").toContain("********(was)");
      for (const [argv, { out }] of runs) expect(out.match(CANARY)?.[0], `tend ${argv} printed a secret:\n${out}`).toBeUndefined();
    },
  );
});
