import * as z from "zod";

/** Names of hosts and groups: what `--limit` patterns and the summary show. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Facts the spec's `defineConfig(host => …)` sees in `host.facts`. */
const Facts = z.record(z.string(), z.unknown()).describe("Facts the spec sees in host.facts (over the detected ones)");

/** Any ssh_config option, by its ssh_config name (`ServerAliveInterval: 15`). */
const SshOptions = z
  .record(
    z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, "an ssh_config option name"),
    z.union([z.string().refine((v) => !/[\x00-\x1f\x7f]/.test(v), "must be one line, without control characters"), z.number(), z.boolean()]),
  )
  .describe("Any ssh_config option (passed as -o Name=value)");

/**
 * A word ssh takes as an address, a login or a jump host: never one it would read as an option
 * (`-oProxyCommand=…` runs a command here), and nothing it would split or refuse.
 */
const sshWord = (what: string) =>
  z
    .string()
    .min(1)
    .refine((v) => !v.startsWith("-"), `must not start with \`-\`: ssh would read the ${what} as an option`)
    .refine((v) => !/[\s\x00-\x1f\x7f]/.test(v), `must be one word, without spaces or control characters`);

const Connection = {
  host: sshWord("address").optional().describe("The address or ssh_config Host alias (default: the host's name)"),
  user: sshWord("login").optional().describe("The login; when it is not root, tend runs as root through `sudo -n`"),
  port: z.number().int().min(1).max(65535).optional(),
  identity: z
    .string()
    .min(1)
    .refine((v) => !/[\x00-\x1f\x7f]/.test(v), "must be a path without control characters")
    .optional()
    .describe("A private key file (ssh -i)"),
  jump: sshWord("jump host").optional().describe("A jump host (ssh -J)"),
  ssh: SshOptions.optional(),
};

export const HostSchema = z
  .strictObject({
    ...Connection,
    groups: z.array(z.string().regex(NAME, "a group name")).optional().describe("Groups the host is in"),
    facts: Facts.optional(),
  })
  .nullable();

export const GroupSchema = z.strictObject({
  hosts: z.array(z.string().regex(NAME, "a host name")).optional().describe("Hosts in the group (besides those naming it)"),
  facts: Facts.optional(),
  ...Connection,
});

export const InventorySchema = z.strictObject({
  defaults: z.strictObject(Connection).optional().describe("Connection settings every host starts from"),
  hosts: z.record(z.string().regex(NAME, "a host name"), HostSchema),
  groups: z.record(z.string().regex(NAME, "a group name"), GroupSchema).optional(),
});

export type InventoryInput = z.input<typeof InventorySchema>;

/** The JSON Schema editors use for `tend.hosts.yaml`, generated from the zod schema. */
export function buildHostsJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(InventorySchema, { unrepresentable: "any", io: "input" }) as Record<string, unknown>;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://tend.dev/schema/hosts-v1.json",
    title: "tend inventory (tend.hosts.yaml)",
    ...schema,
  };
}
