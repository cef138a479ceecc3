import { NODE_IN_HOST, TEND_IN_HOST, type TestHost } from "@tend/testkit/harness";

const LOG = "/var/tmp/tend-commands.strace";

/**
 * The commands one `tend ARGS` run starts on `host`, in order, read from strace (`-f`: tend and
 * everything it starts; successful execve only, so a PATH search counts once): each as its
 * program's name and arguments, with each run of arguments that `many` matches (the services'
 * own paths) shown as one "…", so that runs over 3 services and over 60 compare. node itself and
 * the gate shell a command starts through under the lock (core's command-gate) are left out.
 */
export async function commandsOfRun(host: TestHost, args: string[], many: RegExp): Promise<string[]> {
  await host.mustExec(["strace", "-f", "-qq", "-v", "-s", "512", "-e", "trace=execve", "-e", "signal=none", "-o", LOG, NODE_IN_HOST, `${TEND_IN_HOST}/packages/cli/dist/bin.js`, ...args]);
  const commands: string[] = [];
  for (const line of (await host.readFile(LOG)).split("\n")) {
    const call = /execve\("[^"]*", \[(.*)\], .*\) = 0$/.exec(line);
    if (!call) continue;
    const argv = JSON.parse(`[${call[1]}]`) as string[];
    if (argv[0] === "node" || argv[0] === NODE_IN_HOST || argv[3] === "tend-gate") continue;
    const shown: string[] = [argv[0]!.split("/").at(-1)!];
    for (const arg of argv.slice(1)) {
      if (!many.test(arg)) shown.push(arg);
      else if (shown.at(-1) !== "…") shown.push("…");
    }
    commands.push(shown.join(" "));
  }
  return commands;
}
