import { bytesOf } from "./bytes-of.js";
import { contentText, type FileContent } from "./file-content.js";
import type { FileOperation } from "./file-operation.js";

/** How a write's content crosses to a child process: its text, or its bytes as base64 (bytes that are not UTF-8 survive no text). */
type JsonContent = string | { base64: string };

/** Operations as the JSON a child process reads (see operationsFromJson): each content whole, bytes as base64. */
export function operationsToJson(root: string, operations: FileOperation[]): string {
  const plain = operations.map((operation) => (operation.op === "write" || operation.op === "append" ? { ...operation, content: toJson(operation.content) } : operation));
  return JSON.stringify({ root, operations: plain });
}

/** What operationsToJson wrote, back as operations. */
export function operationsFromJson(text: string): { root: string; operations: FileOperation[] } {
  const { root, operations } = JSON.parse(text) as { root: string; operations: (FileOperation & { content?: JsonContent })[] };
  return {
    root,
    operations: operations.map((operation) =>
      (operation.op === "write" || operation.op === "append") && typeof operation.content === "object" ? { ...operation, content: Buffer.from(operation.content.base64, "base64") } : operation,
    ) as FileOperation[],
  };
}

function toJson(content: FileContent): JsonContent {
  return content instanceof Uint8Array ? { base64: bytesOf(content).toString("base64") } : contentText(content);
}
