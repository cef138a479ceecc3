import { COMMANDS, FLAGS, GLOBAL, type CommandName, type Flag } from "./flags.js";

export { COMMANDS, type CommandName } from "./flags.js";

export interface CommandLine {
  command: CommandName;
  positionals: string[];
  spec?: string;
  init?: string;
  root?: string;
  user?: boolean | string;
  json: boolean;
  /** `apply --json-stream`: one JSON event per line, as it happens. */
  jsonStream: boolean;
  /** `--color` (true), `--no-color` (false), or neither (decided from the terminal and the environment). */
  color?: boolean;
  detailedExitcode: boolean;
  adopt: boolean;
  diff: boolean;
  lockTimeout: number;
  /** `--hosts FILE`: plan or apply on the inventory's hosts over ssh. */
  hosts?: string;
  /** `--limit PATTERN`: some of them. */
  limit?: string;
  /** `--parallel N`: hosts at once. */
  parallel?: number;
  help: boolean;
  version: boolean;
}

/** A mistake on the command line, with the likely intended word when there is one. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** What was typed, and what it could have been: the closest is suggested ("did you mean"). */
    readonly typo?: { word: string; candidates: readonly string[]; format?: (word: string) => string },
  ) {
    super(message);
  }

  /** The command whose flags were wrong, once it is known: its `--help` lists them. */
  command?: CommandName;
}

/**
 * Reads a command line: the command first (or `help` when none), then its flags and positionals
 * in any order. Each command takes only its own flags; an unknown flag, a flag of another command
 * or a misspelt command is refused with the closest real one.
 */
export function parseCommandLine(argv: string[]): CommandLine {
  const command = readCommand(argv);
  try {
    return readFlags(argv, command);
  } catch (error) {
    if (error instanceof UsageError && command !== "help") error.command = command;
    throw error;
  }
}

function readCommand(argv: string[]): CommandName {
  const commandIndex = argv.findIndex((arg) => !arg.startsWith("-"));
  const first = commandIndex >= 0 ? argv[commandIndex]! : undefined;
  let command: CommandName = "help";
  if (first !== undefined) {
    if (!(COMMANDS as readonly string[]).includes(first)) {
      throw new UsageError(`unknown command \`${first}\``, { word: first, candidates: COMMANDS, format: (word) => `tend ${word}` });
    }
    command = first as CommandName;
  }
  return command;
}

/** The commands that take words besides their flags: resource references, or help's topic. */
const TAKES_WORDS: ReadonlySet<CommandName> = new Set(["observe", "render", "help"]);

/**
 * A word a command takes none of. Never ignored: `tend apply service:web` would apply the whole
 * spec to an admin who meant one service. A spec's file name given bare gets `-f`.
 */
function strayWord(command: CommandName, word: string): UsageError {
  if (/\.(ya?ml|[cm]?[jt]s|json)$/i.test(word)) return new UsageError(`tend ${command} takes the spec with -f: tend ${command} -f ${word}`);
  if (/^[a-z]+:|\[/i.test(word)) {
    const does: Partial<Record<CommandName, string>> = { apply: "applies the whole spec of this scope; tend plan shows all it would change", plan: "plans the whole spec of this scope", validate: "checks the whole spec" };
    return new UsageError(`tend ${command} takes no resource references (\`${word}\`)${does[command] ? `: it ${does[command]}` : ""}`);
  }
  return new UsageError(`tend ${command} takes no word \`${word}\` besides its flags`);
}

/** The longest `--lock-timeout`, in seconds. */
const MAX_LOCK_WAIT_S = 365 * 24 * 3600;

function readFlags(argv: string[], command: CommandName): CommandLine {
  const commandIndex = argv.findIndex((arg) => !arg.startsWith("-"));
  const flags = [...FLAGS[command], ...GLOBAL];
  const values = new Map<string, string | true>();
  const positionals: string[] = [];
  // A flag given twice with two values is refused, never decided by its last: `-f a.yaml -f
  // b.yaml` or `--init runit --init systemd` in a script, run as root, would apply one silently.
  const setValue = (flag: Flag, value: string | true) => {
    const before = values.get(flag.name);
    if (before !== undefined && before !== value) {
      const shown = (v: string | true) => (v === true ? "without a value" : `\`${v}\``);
      throw new UsageError(`--${flag.name} is given twice, ${shown(before)} and ${shown(value)}: give it once`);
    }
    values.set(flag.name, value);
  };
  for (let i = 0; i < argv.length; i += 1) {
    if (i === commandIndex) continue;
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const [raw, inline] = arg.startsWith("--") ? splitInline(arg.slice(2)) : [arg.slice(1), undefined];
    const flag = arg.startsWith("--") ? flags.find((f) => f.name === raw) : flags.find((f) => f.short === raw);
    if (!flag) throw unknownFlag(arg, raw, command, flags);
    if (flag.value === undefined) {
      if (inline !== undefined) throw new UsageError(`--${flag.name} takes no value`);
      values.set(flag.name, true);
    } else if (inline !== undefined) {
      setValue(flag, inline);
    } else if (flag.value === "optional") {
      const next = argv[i + 1];
      // `--user alice`: the next word is a name when it is no flag, command or reference.
      if (next !== undefined && !next.startsWith("-") && !/[:[]/.test(next) && i + 1 !== commandIndex && !(COMMANDS as readonly string[]).includes(next)) {
        setValue(flag, next);
        i += 1;
      } else setValue(flag, true);
    } else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith("-") && next !== "-")) throw new UsageError(`--${flag.name} needs a value`);
      if (i + 1 === commandIndex) throw new UsageError(`--${flag.name} needs a value before the command \`${next}\``);
      setValue(flag, next);
      i += 1;
    }
  }
  const text = (name: string) => {
    const value = values.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const lockText = text("lock-timeout");
  const lockTimeout = lockText === undefined ? 0 : Number(lockText);
  // flock's timer refuses what overflows it (1e308): a year is more than any apply waits.
  if (!Number.isFinite(lockTimeout) || lockTimeout < 0 || lockTimeout > MAX_LOCK_WAIT_S) throw new UsageError(`--lock-timeout takes a number of seconds, 0 to ${MAX_LOCK_WAIT_S} (a year)`);
  const parallelText = text("parallel");
  const parallel = parallelText === undefined ? undefined : Number(parallelText);
  if (parallel !== undefined && (!Number.isInteger(parallel) || parallel < 1)) throw new UsageError("--parallel takes a whole number of hosts, 1 or more");
  if (values.has("hosts") && (values.has("root") || values.has("user") || values.has("init"))) throw new UsageError("--hosts runs on the inventory's hosts: --root, --user and --init apply to one host only");
  if (!values.has("hosts") && (values.has("limit") || values.has("parallel"))) throw new UsageError("--limit and --parallel choose hosts of an inventory: pass --hosts FILE too");
  if (values.has("color") && values.has("no-color")) throw new UsageError("--color and --no-color contradict each other");
  if (positionals.length > 0 && !TAKES_WORDS.has(command)) throw strayWord(command, positionals[0]!);
  const user = values.get("user");
  return {
    command,
    positionals,
    ...(text("file") !== undefined ? { spec: text("file")! } : {}),
    ...(text("init") !== undefined ? { init: text("init")! } : {}),
    ...(values.has("root") ? { root: text("root") ?? "" } : {}),
    ...(user !== undefined ? { user } : {}),
    json: values.has("json"),
    jsonStream: values.has("json-stream"),
    ...(values.has("color") ? { color: true } : values.has("no-color") ? { color: false } : {}),
    detailedExitcode: values.has("detailed-exitcode"),
    adopt: values.has("adopt"),
    diff: values.has("diff"),
    lockTimeout,
    ...(text("hosts") !== undefined ? { hosts: text("hosts")! } : {}),
    ...(text("limit") !== undefined ? { limit: text("limit")! } : {}),
    ...(parallel !== undefined ? { parallel } : {}),
    help: values.has("help"),
    version: values.has("version"),
  };
}

function splitInline(text: string): [string, string | undefined] {
  const at = text.indexOf("=");
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

function unknownFlag(arg: string, raw: string, command: CommandName, flags: Flag[]): UsageError {
  if (!arg.startsWith("--") && raw === "version") return new UsageError(`unknown flag \`${arg}\``, { word: "--version", candidates: ["--version"] });
  const owner = (Object.keys(FLAGS) as CommandName[]).find((other) => other !== command && FLAGS[other].some((f) => f.name === raw));
  if (owner) return new UsageError(`\`${arg}\` is a flag of \`tend ${owner}\`, not of \`tend ${command}\``);
  const names = flags.map((f) => `--${f.name}`);
  return new UsageError(`unknown flag \`${arg}\` for \`tend ${command}\``, { word: arg.startsWith("--") ? arg : `--${raw}`, candidates: names });
}
