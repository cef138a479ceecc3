import { isAlias, isMap, isScalar, LineCounter, parseAllDocuments, visit, type Document } from "yaml";
import { errors } from "../errors/catalogue.js";
import type { ErrorLocation } from "../errors/tend-error.js";
import type { Locate } from "../model/validate-spec.js";

export interface RawSpec {
  resources: unknown[];
  locate: Locate;
}

const TYPES: Record<string, string> = { service: "service", timer: "timer", file: "file", package: "package" };

/**
 * Parses `tend.yaml`'s text: one resource per document, Datum-style (`tend: v1alpha1`,
 * `type: Service`). Loaded only when a YAML spec is parsed (a cached one is not).
 */
export async function parseYamlSpec(file: string, text: string): Promise<RawSpec> {
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (!Array.isArray(documents)) throw errors.spec(`${file} is not a YAML stream`, { file });
  const kept: Document[] = [];
  const resources: unknown[] = [];
  for (const doc of documents) {
    const at = (offset: number | undefined): ErrorLocation => ({ file, ...(offset !== undefined ? { line: lineCounter.linePos(offset).line } : {}) });
    if (doc.errors.length > 0) {
      const first = doc.errors[0]!;
      // The parser nests a call per level: a deep enough text runs the stack out.
      const why = /Maximum call stack/.test(first.message) ? "it nests too deeply" : first.message.split("\n")[0];
      throw errors.spec(`${file} is not valid YAML: ${why}`, at(first.pos[0]));
    }
    // Nothing written (a `---` at the end, a document commented out) is no resource, as a text of comments alone is none.
    if (doc.contents === null || (isScalar(doc.contents) && doc.contents.source === "" && doc.contents.value === null)) continue;
    if (!isMap(doc.contents)) throw errors.spec("each YAML document must be one resource (a mapping)", at(doc.contents.range?.[0]));
    const value = documentValue(doc, file, at);
    const version = value.tend;
    if (version !== "v1alpha1") {
      throw errors.spec(`each document needs \`tend: v1alpha1\`${version === undefined ? "" : `, not \`${String(version)}\``}`, { ...at(doc.contents.range?.[0]), field: "tend" });
    }
    const { tend: _version, type, ...fields } = value;
    const lowered = typeof type === "string" ? TYPES[type.toLowerCase()] : undefined;
    if (lowered === "file" && typeof fields.mode === "number") fields.mode = modeAsWritten(doc) ?? fields.mode;
    resources.push({ type: lowered ?? type, ...fields });
    kept.push(doc);
  }
  const locate: Locate = (index, path) => {
    const doc = kept[index];
    if (!doc) return { file };
    for (let depth = path.length; depth >= 0; depth -= 1) {
      const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === "object" && node.range) return { file, line: lineCounter.linePos(node.range[0]).line };
    }
    return { file };
  };
  return { resources, locate };
}

/**
 * A document as plain data. Anchors and aliases work within one document (one resource); an
 * alias to another document's anchor, or one that expands beyond reason (a "billion laughs"),
 * is the spec's error, at the alias's line.
 */
function documentValue(doc: Document, file: string, at: (offset: number | undefined) => ErrorLocation): Record<string, unknown> {
  try {
    return doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  } catch (error) {
    let offset: number | undefined;
    let name = "";
    visit(doc, {
      Alias(_key, node) {
        if (!isAlias(node)) return undefined;
        offset ??= node.range?.[0];
        name ||= node.source;
        return undefined;
      },
    });
    const message = (error as Error).message ?? String(error);
    const why = /Excessive alias count/.test(message)
      ? "its aliases expand to too much data"
      : /Unresolved alias/.test(message)
        ? `alias *${name} names no anchor earlier in the same document (anchors reach only within one document, one resource)`
        : message.split("\n")[0];
    throw errors.spec(`${file} cannot be read: ${why}`, at(offset));
  }
}

/**
 * A File's `mode` written as a number (`mode: 0644`, `mode: 0o755`), as the digits written: YAML
 * 1.2 reads `0644` as six hundred and forty-four, where an admin means chmod's octal 0644.
 * Undefined for a number that is not octal digits as written.
 */
function modeAsWritten(doc: Document): string | undefined {
  const node = doc.get("mode", true);
  if (!isScalar(node) || typeof node.source !== "string") return undefined;
  // As if quoted: `0644` and `644` as they are, YAML's own octal `0o644` as `0644`.
  return /^(0o?)?[0-7]{3,4}$/.test(node.source) ? node.source.replace(/^0o/, "0") : undefined;
}
