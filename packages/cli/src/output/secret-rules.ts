/**
 * What core counts as secret: `@tend/core/runtime`'s exports of these names, handed to the
 * diff code by the command that prints diffs. That code is bundled into the CLI's one file, where
 * an import of core's would load all of core at every start, `tend --version` included.
 */
export interface SecretRules {
  /** A name whose value is a secret (`API_TOKEN`, `DB_PASSWORD`…). */
  SECRET_NAME: RegExp;
  /** The secret values of an `env`. */
  secretValues(env: Record<string, string> | undefined): string[];
}
