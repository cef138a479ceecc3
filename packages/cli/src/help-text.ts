import type { CommandName } from "./parse-command-line.js";

const COMMON = `Common flags:
  -f, --file SPEC      the spec (default: tend.config.{ts,mts,js,mjs} or tend.yaml here)
  --init NAME          act as if the host ran NAME (systemd, launchd, runit, openrc, dinit, s6)
  --root DIR           work on an image root: write and enable offline, start nothing
  --user [NAME]        the user scope (as root, NAME picks the user); default: system as root
  -h, --help           this help`;

const TEXT: Record<CommandName, string> = {
  help: `tend — make a host's services and timers match a spec, on whatever init it runs

Usage: tend <command> [flags]

Commands:
  plan        observe the host and print what apply would do
  apply       plan, carry it out, verify it worked
  observe     what the host reports for each resource
  render      the files a spec becomes on an init, without touching the host
  providers   the providers tend found, and which serves this host
  validate    check the spec alone

Run \`tend <command> --help\` for a command's flags.

${COMMON}

Exit codes: 0 success; 1 error, failure or a change that did not verify;
2 plan --detailed-exitcode found changes.`,
  plan: `Usage: tend plan [-f SPEC] [--json] [--detailed-exitcode] [--adopt]

Observes the host and prints the plan. Changes nothing.
  --json               the plan as JSON
  --detailed-exitcode  exit 0 when there is nothing to do, 2 when there are changes, 1 on error
  --adopt              plan to take over files at target paths that tend did not write

${COMMON}`,
  apply: `Usage: tend apply [-f SPEC] [--adopt] [--lock-timeout SECONDS]

Takes the scope's lock, plans again under it, carries the plan out, then verifies that every
started service stays up across its settle window. Exits 1 if anything failed or did not verify.
  --adopt                 take over files at target paths that tend did not write (a backup is kept)
  --lock-timeout SECONDS  wait this long for another apply to finish (default: fail at once)

${COMMON}`,
  observe: `Usage: tend observe [-f SPEC] [REF...] [--json]

What the init reports for each resource (or the ones named, as service:web or Service[web]):
exists, state (running or stopped), enabled at boot (or unobservable, with the unit file state).

${COMMON}`,
  render: `Usage: tend render [-f SPEC] [--init NAME|all] [REF...]

Prints the files the spec becomes on an init (this host's, NAME, or every init with "all").
Touches nothing.

${COMMON}`,
  providers: `Usage: tend providers [-f SPEC] [--json]

Lists the provider packages found from the spec's folder and from tend's own install, each with
its version and what it serves, and which of them serve this host.

${COMMON}`,
  validate: `Usage: tend validate [-f SPEC]

Checks the spec alone: every field, names, references and cycles. Needs no init.

${COMMON}`,
};

export function helpText(command: CommandName): string {
  return `${TEXT[command]}\n`;
}
