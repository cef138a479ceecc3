import type { ProviderState } from "@tend/core/contract";

/*
 * What the provider keeps in tend's state file: the generation of the last compiled database, and
 * which services the last s6-rc-update restarted through its conversion file, so `apply` does not
 * restart them a second time.
 */

export interface UpdateRestarts {
  generation: number;
  services: string[];
}

export function lastGeneration(state: ProviderState): number {
  const value = state.get<number>("generation");
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : 0;
}

export function recordUpdate(state: ProviderState, update: UpdateRestarts): void {
  state.set("generation", update.generation);
  state.set("restartedByUpdate", update);
}

/** Whether the s6-rc-update of the current generation restarted this service already. */
export function restartedByUpdate(state: ProviderState, service: string): boolean {
  const record = state.get<UpdateRestarts>("restartedByUpdate");
  return record !== undefined && record.generation === lastGeneration(state) && Array.isArray(record.services) && record.services.includes(service);
}
