import { parseExec, ServiceSchema, TimerSchema } from "@tend/core";
import { renderContext } from "@tend/testkit";
import plist from "plist";
import { describe, expect, it } from "vitest";
import { EXEC_FORMS } from "../../../integration/support/exec-forms.js";
import { hatchWarnings } from "./hatch-warnings.js";
import { renderJob } from "./render-job.js";

const system = renderContext({ init: "launchd" });
const parsed = (resource: ReturnType<typeof ServiceSchema.parse> | ReturnType<typeof TimerSchema.parse>) =>
  plist.parse(renderJob(resource, system)[0]!.content) as Record<string, unknown>;
const service = (exec: string, fields: Record<string, unknown> = {}) => ServiceSchema.parse({ type: "service", name: "demo", exec, restart: "always", ...fields });

describe("exec becomes ProgramArguments exactly: the program written is the process launchd runs and signals", () => {
  it.each(Object.entries(EXEC_FORMS))("%s: ProgramArguments is parseExec's argv, with no sh -c of tend's own around it", (_form, make) => {
    const exec = make("demo");
    expect(parsed(service(exec)).ProgramArguments).toEqual(parseExec(exec).argv);
    expect(parsed(TimerSchema.parse({ type: "timer", name: "demo", exec, schedule: "@daily" })).ProgramArguments).toEqual(parseExec(exec).argv);
  });

  it.each([
    ["a quoted simple command is split as sh would", 'nginx -g "daemon off;"', ["/usr/bin/env", "nginx", "-g", "daemon off;"]],
    ["a quoted argument holding a space and a `;`", EXEC_FORMS.quotedArgs("q"), ["/opt/demo/bin/demo", "q", "", "daemon off;"]],
    [
      "`/bin/sh -c '…'` is that one shell, the script its own argument",
      EXEC_FORMS.shellLoop("s"),
      ["/bin/sh", "-c", `echo "start $$" >> /var/tmp/demo-s; trap "echo hup $$ >> /var/tmp/demo-s" HUP; while :; do sleep 1; done`],
    ],
    ["a script path runs directly", EXEC_FORMS.scriptPath("p"), ["/opt/demo/bin/demo", "p"]],
    ["shell syntax runs through one sh -c that execs its last command", EXEC_FORMS.shellThenExec("e"), ["/bin/sh", "-c", "cd /var/tmp && exec /opt/demo/bin/demo e"]],
    ["a pipeline runs through one sh -c, left as written", EXEC_FORMS.pipeline("x"), ["/bin/sh", "-c", "/opt/demo/bin/demo x | /opt/demo/bin/demo x-tail"]],
  ])("%s", (_what, exec, argv) => {
    expect(parsed(service(exec)).ProgramArguments).toEqual(argv);
  });
});

describe("launchd ends the job's whole process group (AbandonProcessGroup is false by default)", () => {
  it.each(Object.entries(EXEC_FORMS))("%s: the plist leaves AbandonProcessGroup unset, so a stop, restart or removal leaves no process the job started", (_form, make) => {
    const content = renderJob(service(make("demo")), system)[0]!.content;
    expect(content).not.toContain("AbandonProcessGroup");
    expect(parsed(service(make("demo")))).not.toHaveProperty("AbandonProcessGroup");
  });

  it("the hatch may set it, and plan warns naming the key and what it costs", () => {
    const kept = service(EXEC_FORMS.pipeline("x"), { launchd: { AbandonProcessGroup: true } });
    expect(parsed(kept).AbandonProcessGroup).toBe(true);
    expect(hatchWarnings(kept)).toEqual([
      "`launchd.AbandonProcessGroup` = true stops launchd from ending the job's process group when the job exits: what `exec` starts besides the program (a pipeline's other commands, children it leaves behind) survives stop, restart and removal",
    ]);
    expect(hatchWarnings(service("/opt/web", { launchd: { AbandonProcessGroup: false } }))).toEqual([]);
  });
});
