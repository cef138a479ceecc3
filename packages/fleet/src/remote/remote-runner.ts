import { errors, TendError, type Command, type CommandResult, type Runner } from "@tend/core";
import { q, SSH_FAILED, type ShellChannel } from "../ssh/ssh-connection.js";

const BASE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** The sh command line for a Command on the target: a minimal environment, as the local runner gives. */
export function remoteCommandLine(command: Command, privilege: string): string {
  const env = { PATH: BASE_PATH, LC_ALL: "C", ...command.env };
  const asUser = command.asUser ? `setpriv --reuid=${command.asUser.uid} --regid=${command.asUser.gid} --init-groups ` : "";
  const assignments = Object.entries(env).map(([k, v]) => q(`${k}=${v}`)).join(" ");
  return `${privilege}env -i ${assignments} ${asUser}${command.argv.map(q).join(" ")}`;
}

/** Runs the providers' commands on the target, in the host connection's shell sessions (see SshConnection). */
export class RemoteRunner implements Runner {
  constructor(
    private readonly channel: ShellChannel & { privilege?: string },
    private readonly host: string,
  ) {}

  async run(command: Command): Promise<CommandResult> {
    if (command.argv.length === 0) throw new TendError("TEND_USAGE", "empty command");
    const result = await this.channel.command(remoteCommandLine(command, this.channel.privilege ?? ""), command.input ?? "", command.timeoutMs ?? 60_000);
    if (result.exitCode === SSH_FAILED && /^(ssh|mux_client|Control socket|Connection)/m.test(result.stderr)) {
      throw new TendError("TEND_FLEET_CONNECTION", `${this.host}: the connection failed running \`${command.argv.join(" ")}\`: ${result.stderr.trim()}`, {
        hint: "Run the command again once the host is reachable: the state on the host lets the rerun converge",
        resource: this.host,
      });
    }
    const ok = command.okCodes === "any" || (command.okCodes ?? [0]).includes(result.exitCode);
    if (!ok) {
      const detail = (result.stderr.trim() || result.stdout.trim()).split("\n").slice(-5).join("\n");
      throw errors.commandFailed(command.argv, result.exitCode, detail);
    }
    return result;
  }
}
