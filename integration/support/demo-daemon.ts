import type { TestHost } from "@tend/testkit/harness";

/**
 * A daemon for the service suites: `demo NAME [SECONDS]`. It logs its start (pid and GREETING)
 * and the signals it gets to /var/tmp/demo-NAME, and says on stdout who it runs as. HUP is logged
 * and ignored; USR1 is logged and ends it cleanly (exit 0); TERM is logged and then kills it as
 * an untrapped TERM would. Given SECONDS, it gives up after that long with exit 1. The suites
 * install it as /opt/demo/bin/demo.
 */
export const DEMO = `#!/bin/sh
name=$1
log=/var/tmp/demo-$name
printf "start %s %s\\n" "$$" "\${GREETING-unset}" >> "$log"
echo "demo $name started as $(id -un)"
trap 'echo "hup $$" >> "$log"' HUP
trap 'echo "usr1 $$" >> "$log"; exit 0' USR1
trap 'echo "term $$" >> "$log"; trap - TERM; kill -TERM $$' TERM
[ -n "$2" ] && { sleep "$2"; echo "demo $name gives up"; exit 1; }
while :; do sleep 1 & wait $!; done
`;

/** What DEMO logged for `name` so far ("" before its first start). */
export async function demoLog(host: TestHost, name: string): Promise<string> {
  return (await host.exec(["cat", `/var/tmp/demo-${name}`])).stdout;
}

/** DEMO's `start <pid> <GREETING>` lines for `name`, one per process it ran as. */
export async function demoStarts(host: TestHost, name: string): Promise<string[]> {
  return (await demoLog(host, name)).split("\n").filter((line) => line.startsWith("start "));
}
