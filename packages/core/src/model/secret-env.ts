import type { Artifact } from "../contract/artifact.js";

/** Environment variable names whose values are secrets: masked in every diff, kept out of files others can read. */
export const SECRET_NAME = /(PASS(WORD|WD)?|SECRET|TOKEN|KEY|CREDENTIAL|PRIVATE|AUTH|COOKIE|SESSION)/i;

/** The values of an `env` that look like secrets (at least 4 characters, so as to mask nothing by accident). */
export function secretValues(env: Record<string, string> | undefined): string[] {
  return Object.entries(env ?? {})
    .filter(([name, value]) => SECRET_NAME.test(name) && value.length >= 4)
    .map(([, value]) => value);
}

/**
 * A resource's files as they may be written, given its `env`: when it holds a secret, every file
 * the resource renders is readable by its owner only (0644 becomes 0600, 0755 0700). The init
 * reads them as root, or as the user who owns them; no one else reads the secret in them.
 */
export function keepSecretsPrivate(env: Record<string, string> | undefined, artifacts: Artifact[]): Artifact[] {
  if (secretValues(env).length === 0) return artifacts;
  return artifacts.map((artifact) => ((artifact.store ?? "file") === "file" ? { ...artifact, mode: (artifact.mode ?? 0o644) & 0o700 } : artifact));
}
