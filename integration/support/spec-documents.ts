/** One document of a tend.yaml: `tend: v1alpha1` and the fields given (YAML, surrounding blank lines trimmed). */
export const doc = (fields: string): string => `tend: v1alpha1\n${fields.trim()}\n`;

/** A tend.yaml of these documents. */
export const spec = (...docs: string[]): string => docs.join("---\n");
