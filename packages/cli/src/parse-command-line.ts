import { parseArgs } from "node:util";

export const COMMANDS = ["plan", "apply", "observe", "render", "providers", "validate", "help"] as const;
export type CommandName = (typeof COMMANDS)[number];

export interface CommandLine {
  command: CommandName;
  positionals: string[];
  spec?: string;
  init?: string;
  root?: string;
  user?: boolean | string;
  json: boolean;
  detailedExitcode: boolean;
  adopt: boolean;
  lockTimeout: number;
  help: boolean;
  version: boolean;
}

export class UsageError extends Error {}

/** `--user` takes an optional NAME: `--user=alice`, or `--user alice` when the next word is no flag or reference. */
function splitUser(argv: string[]): { argv: string[]; user?: boolean | string } {
  const rest: string[] = [];
  let user: boolean | string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg.startsWith("--user=")) user = arg.slice("--user=".length);
    else if (arg === "--user") {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith("-") && !/[:[]/.test(next) && !(COMMANDS as readonly string[]).includes(next)) {
        user = next;
        i += 1;
      } else user = true;
    } else rest.push(arg);
  }
  return { argv: rest, ...(user !== undefined ? { user } : {}) };
}

export function parseCommandLine(raw: string[]): CommandLine {
  const { argv, user } = splitUser(raw);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        file: { type: "string", short: "f" },
        init: { type: "string" },
        root: { type: "string" },
        json: { type: "boolean", default: false },
        "detailed-exitcode": { type: "boolean", default: false },
        adopt: { type: "boolean", default: false },
        "lock-timeout": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "V", default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [first, ...positionals] = parsed.positionals;
  const command = (first ?? "help") as CommandName;
  if (!(COMMANDS as readonly string[]).includes(command)) throw new UsageError(`unknown command \`${command}\``);
  const lockTimeout = parsed.values["lock-timeout"] === undefined ? 0 : Number(parsed.values["lock-timeout"]);
  if (!Number.isFinite(lockTimeout) || lockTimeout < 0) throw new UsageError("--lock-timeout takes a number of seconds");
  const v = parsed.values;
  return {
    command,
    positionals,
    ...(v.file !== undefined ? { spec: v.file } : {}),
    ...(v.init !== undefined ? { init: v.init } : {}),
    ...(v.root !== undefined ? { root: v.root } : {}),
    ...(user !== undefined ? { user } : {}),
    json: v.json ?? false,
    detailedExitcode: v["detailed-exitcode"] ?? false,
    adopt: v.adopt ?? false,
    lockTimeout,
    help: v.help ?? false,
    version: v.version ?? false,
  };
}
