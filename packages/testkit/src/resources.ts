import { FileSchema, ServiceSchema, TimerSchema, type FileResource, type Service, type Timer } from "@tend/core";

type Fields<T> = Omit<T, "type" | "name">;

/**
 * Resources for tests, validated by the model exactly as a spec's are (defaults applied, bad
 * fields thrown), so a provider's tests never hand it something no spec could produce.
 */
export const build = {
  service: (name: string, fields: Fields<Service> = {}): Service => ServiceSchema.parse({ type: "service", name, ...fields }),
  timer: (name: string, fields: Fields<Timer>): Timer => TimerSchema.parse({ type: "timer", name, ...fields }),
  file: (name: string, fields: Fields<FileResource>): FileResource => FileSchema.parse({ type: "file", name, ...fields }),
};
