/**
 * Where the first own `__proto__` key is in a raw value, or undefined. A spec may spell one (a
 * YAML or JSON key), but zod's records skip it and a plain object cannot hold it as data: an env
 * entry `__proto__` would vanish without a word. It is refused instead, at its field.
 */
export function protoKeyPath(value: unknown, path: (string | number)[] = [], within = new Set<object>()): (string | number)[] | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (Object.prototype.hasOwnProperty.call(value, "__proto__")) return [...path, "__proto__"];
  // A value that holds itself (a spec module can build one) has no key it did not show already.
  if (within.has(value)) return undefined;
  within.add(value);
  const list = Array.isArray(value);
  for (const [key, inner] of Object.entries(value)) {
    const found = protoKeyPath(inner, [...path, list ? Number(key) : key], within);
    if (found) return found;
  }
  within.delete(value);
  return undefined;
}
