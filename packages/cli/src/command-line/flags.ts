/** The commands, in the order help lists them. */
export const COMMANDS = ["plan", "apply", "observe", "render", "providers", "validate", "help"] as const;
export type CommandName = (typeof COMMANDS)[number];

/** A flag: its long name, an optional short one, and whether it takes a value. */
export interface Flag {
  name: string;
  short?: string;
  value?: "string" | "optional";
}

const COMMON: Flag[] = [
  { name: "file", short: "f", value: "string" },
  { name: "init", value: "string" },
  { name: "root", value: "string" },
  { name: "user", value: "optional" },
  { name: "json" },
  { name: "color" },
  { name: "no-color" },
  { name: "help", short: "h" },
];

/** A fleet run (`--hosts FILE`): which hosts, how many at once. */
const FLEET: Flag[] = [
  { name: "hosts", value: "string" },
  { name: "limit", value: "string" },
  { name: "parallel", value: "string" },
];

/** Which flags each command takes: a flag of another command is refused, not ignored. */
export const FLAGS: Record<CommandName, Flag[]> = {
  plan: [...COMMON, { name: "detailed-exitcode" }, { name: "adopt" }, { name: "diff" }, ...FLEET],
  apply: [...COMMON, { name: "adopt" }, { name: "lock-timeout", value: "string" }, { name: "diff" }, { name: "json-stream" }, ...FLEET],
  observe: COMMON,
  render: COMMON,
  providers: COMMON,
  validate: COMMON,
  help: [{ name: "json" }, { name: "color" }, { name: "no-color" }, { name: "help", short: "h" }],
};

/** Flags every command line may carry, whatever the command. */
export const GLOBAL: Flag[] = [
  { name: "version", short: "V" },
  { name: "version", short: "v" },
];
