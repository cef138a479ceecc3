/**
 * Bytes as a Buffer over the same memory (no copy), for its encodings. Kept out of
 * file-content.ts, whose declarations a spec's folder type-checks without @types/node.
 */
export function bytesOf(content: Uint8Array): Buffer {
  return Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}
