import { join } from "node:path";
import type { Scope } from "../contract/host.js";
import { errors } from "../errors/catalogue.js";
import type { LocalHostFiles } from "../execute/host-files.js";
import { emptyState, type StateFile } from "./state-file.js";

/** Where a scope's state lives (host paths; `--root` maps them inside the root). */
export function stateDir(scope: Scope): string {
  if (scope.kind === "system") return "/var/lib/tend";
  const own = process.getuid?.() === scope.uid;
  const xdg = own ? process.env.XDG_STATE_HOME : undefined;
  return xdg && xdg.startsWith("/") ? join(xdg, "tend") : join(scope.home, ".local/state/tend");
}

/** Reads and saves the state file through the host's file writer (atomic, 0600). */
export class StateStore {
  readonly path: string;
  constructor(
    private readonly files: LocalHostFiles,
    readonly dir: string,
  ) {
    this.path = join(dir, "state.json");
  }

  async load(): Promise<StateFile> {
    const text = await this.files.readFile(this.path);
    if (text === null) return emptyState();
    try {
      const parsed = JSON.parse(text) as StateFile;
      if (parsed.version !== 1 || typeof parsed.resources !== "object") throw new Error("unknown layout");
      parsed.providers ??= {};
      return parsed;
    } catch (error) {
      throw errors.spec(`the state file ${this.files.real(this.path)} is damaged (${(error as Error).message})`, {
        hint: "Restore it from a backup, or move it away to start over (tend will then treat existing files as unmanaged)",
      });
    }
  }

  async save(state: StateFile): Promise<void> {
    state.serial += 1;
    await this.files.writeFile(this.path, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  }
}
