/** One document of a tend.yaml: `tend: v1alpha1` and the fields given (YAML, surrounding blank lines trimmed). */
export const doc = (fields: string): string => `tend: v1alpha1\n${fields.trim()}\n`;

/** What a tend.yaml holds to remove everything: an empty one is refused (it is what a failed write leaves). */
export const NOTHING = "# nothing\n";

/** A tend.yaml of these documents; of none, NOTHING. */
export const spec = (...docs: string[]): string => (docs.length === 0 ? NOTHING : docs.join("---\n"));
