import type { StateFile } from "./state-file.js";

/**
 * The text of state.json — exactly `${JSON.stringify(state, null, 2)}\n` — in pieces: one per
 * resource record and provider bag, so the state of thousands of resources is written without
 * ever being one string.
 */
export function* stateJsonPieces(state: StateFile): Generator<string> {
  yield* jsonPieces(state, "", 2);
  yield "\n";
}

/** `JSON.stringify(value, null, 2)` at `indent`, with the members of plain objects `depth` levels down as pieces of their own. */
function* jsonPieces(value: unknown, indent: string, depth: number): Generator<string> {
  if (depth === 0 || !isPlainObject(value)) {
    yield indented(JSON.stringify(value, null, 2), indent);
    return;
  }
  yield "{";
  let empty = true;
  for (const [key, member] of Object.entries(value)) {
    // JSON.stringify leaves these members out.
    if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
    yield `${empty ? "" : ","}\n${indent}  ${JSON.stringify(key)}: `;
    empty = false;
    yield* jsonPieces(member, `${indent}  `, depth - 1);
  }
  yield empty ? "}" : `\n${indent}}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

/** JSON text nested at `indent` (a string in JSON text never holds a raw newline). */
function indented(text: string, indent: string): string {
  return indent === "" ? text : text.replaceAll("\n", `\n${indent}`);
}
