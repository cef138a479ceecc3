/**
 * `value` as a text that names it exactly, when it is plain data (objects of Object's or no
 * prototype with only enumerable string keys, arrays without holes, strings, finite numbers,
 * booleans, null, undefined); anything else (a function, a Date, a class instance, NaN, a
 * bigint, an accessor) gives undefined. Two values with the same text are the same data, so a
 * validation of one holds for the other. Symbol keys (a builder's spec site) are not data.
 */
export function exactJson(value: unknown): string | undefined {
  const parts: string[] = [];
  return write(value, parts, 0) ? parts.join("") : undefined;
}

/** Deeper than any spec: a cycle or a runaway structure is simply not cached. */
const MAX_DEPTH = 64;

function write(value: unknown, parts: string[], depth: number): boolean {
  if (value === null) parts.push("null");
  else if (value === undefined) parts.push("u");
  else if (typeof value === "boolean") parts.push(value ? "true" : "false");
  else if (typeof value === "number") {
    if (!Number.isFinite(value)) return false;
    parts.push(Object.is(value, -0) ? "-0" : String(value));
  } else if (typeof value === "string") parts.push(JSON.stringify(value));
  else if (typeof value !== "object" || depth > MAX_DEPTH) return false;
  else if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || Object.getOwnPropertyNames(value).length !== value.length + 1) return false;
    parts.push("[");
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return false;
      if (i > 0) parts.push(",");
      if (!write(value[i], parts, depth + 1)) return false;
    }
    parts.push("]");
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return false;
    const keys = Object.keys(value);
    if (Object.getOwnPropertyNames(value).length !== keys.length) return false;
    parts.push("{");
    for (const [i, key] of keys.entries()) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
      if (!("value" in descriptor)) return false;
      parts.push(i > 0 ? "," : "", JSON.stringify(key), ":");
      if (!write(descriptor.value, parts, depth + 1)) return false;
    }
    parts.push("}");
  }
  return true;
}
