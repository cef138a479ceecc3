import type { CommandName } from "./command-line/parse-command-line.js";

const COMMON = `Common flags:
  -f, --file SPEC      the spec (default: tend.config.{ts,mts,js,mjs} or tend.yaml here;
                       -f - reads a YAML spec from standard input)
  --init NAME          act as if the host ran NAME (an init an installed provider declares)
  --root DIR           work on an image root, a folder that exists: write and enable
                       offline, start nothing
  --user [NAME]        the user scope (as root, NAME picks the user); default: system as root
  --json               one JSON document on stdout (formatVersion 1; see docs/json.md)
  --color, --no-color  colour or not (default: on a terminal, unless NO_COLOR is set or
                       TERM=dumb; FORCE_COLOR forces it)
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
  validate    check the spec, and what the init cannot express

Run \`tend <command> --help\` for a command's flags; \`tend --version\` (-v) prints the version.

${COMMON}

Exit codes: 0 success; 1 error, failure or a change that did not verify;
2 plan --detailed-exitcode found changes; 129, 130, 143 apply stopped by SIGHUP, SIGINT, SIGTERM.`,
  plan: `Usage: tend plan [-f SPEC] [--diff] [--detailed-exitcode] [--adopt] [--json]

Observes the host and prints the plan. Changes nothing.
  --diff               a unified diff of every file and unit that changes (secret env values masked)
  --detailed-exitcode  exit 0 when there is nothing to do, 2 when there are changes, 1 on error
  --adopt              plan to take over files at target paths that tend did not write

${COMMON}`,
  apply: `Usage: tend apply [-f SPEC] [--diff] [--adopt] [--lock-timeout SECONDS] [--json | --json-stream]

Takes the scope's lock, plans again under it, carries the plan out printing each step as it
happens (with a live progress line on a terminal), then verifies that every started service stays
up across its settle window. Exits 1 if anything failed or did not verify; 130, 143 or 129 when
SIGINT, SIGTERM or SIGHUP stopped it (run apply again to finish).
  --diff                  show how each file and unit changes before applying
  --adopt                 take over files at target paths that tend did not write (a backup is kept)
  --lock-timeout SECONDS  wait this long for another apply to finish, at most a year (default: fail at once)
  --json-stream           one JSON event per line as it happens: plan, step, progress, diagnostic, done

${COMMON}`,
  observe: `Usage: tend observe [-f SPEC] [REF...]

What the init reports for each resource (or the ones named, as service:web or Service[web]):
exists, state (running or stopped), enabled at boot (or unobservable, with the unit file state).

${COMMON}`,
  render: `Usage: tend render [-f SPEC] [--init NAME|all] [REF...]

Prints the files the spec becomes on an init (this host's, NAME, or every init with "all").
Touches nothing. A resource an init cannot express is reported, and tend exits 1.

${COMMON}`,
  providers: `Usage: tend providers [-f SPEC]

Lists the provider packages tend uses with this spec (the ones it lists, its project's, tend's own
install's), each with its version, what it serves and the inits it declares, and which serve this
host.

${COMMON}`,
  validate: `Usage: tend validate [-f SPEC]

Checks the spec: every field, names, references, cycles, tend's own paths. Needs no init; when
the init is known (--init NAME, or this host's) and its provider is installed, also what plan would
refuse there before reading the host: a field that init cannot express, two resources writing one
path.

${COMMON}`,
};

export function helpText(command: CommandName): string {
  return `${TEXT[command]}\n`;
}
