import { NODE_IN_HOST, TEND_IN_HOST, type TestHost } from "@tend/testkit/harness";

const LOG = "/var/tmp/tend-commands.strace";

/**
 * The commands one `tend ARGS` run starts on `host`, in order, read from strace: each process
 * tend starts is traced up to its first execve (`-b execve`: a daemon a command leaves, such as
 * supervise-daemon, would otherwise keep strace waiting). A command started through the gate
 * under the lock (core's command-gate) is read from the gate shell's arguments. Each is shown
 * as its program's name and arguments, with each run of arguments that `many` matches (the
 * services' own names or paths) as one "…", so that runs over 3 services and over 60 compare, and
 * a script (an argument of several lines or over 60 characters) cut to its first 40 characters.
 */
export async function commandsOfRun(host: TestHost, args: string[], many: RegExp): Promise<string[]> {
  const tend = [NODE_IN_HOST, `${TEND_IN_HOST}/packages/cli/dist/bin.js`, ...args];
  await host.mustExec(["strace", "-f", "-qq", "-b", "execve", "-v", "-s", "512", "-e", "trace=execve", "-e", "signal=none", "-o", LOG, ...tend]);
  const commands: string[] = [];
  const seen = new Set<string>();
  for (const line of (await host.readFile(LOG)).split("\n")) {
    const call = /^(\d+) +execve\("[^"]*", \[(.*)\], [^)]*(?:\) = 0|<detached \.\.\.>)$/.exec(line);
    if (!call || seen.has(call[1]!)) continue;
    seen.add(call[1]!);
    const argv = JSON.parse(`[${call[2]}]`) as string[];
    if (argv[0] === NODE_IN_HOST && argv[1] === tend[1]) continue;
    const command = argv[3] === "tend-gate" ? argv.slice(4) : argv;
    const shown: string[] = [command[0]!.split("/").at(-1)!];
    for (const arg of command.slice(1)) {
      if (many.test(arg)) {
        if (shown.at(-1) !== "…") shown.push("…");
      } else {
        shown.push(arg.includes("\n") || arg.length > 60 ? `${arg.split("\n")[0]!.slice(0, 40)}…` : arg);
      }
    }
    commands.push(shown.join(" "));
  }
  return commands;
}

/** `commands` with each run of one command repeated (a verification's probes, as many as its settle window lasts) shown once. */
export function withoutRepeats(commands: string[]): string[] {
  return commands.filter((command, i) => command !== commands[i - 1]);
}
