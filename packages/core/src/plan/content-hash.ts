import * as crypto from "node:crypto";

/** Node's one-shot hash (20.12 and later): no Hash object per call, which a big apply makes 90,000 of. */
const oneShot: ((algorithm: string, data: string, encoding: "hex") => string) | undefined = (crypto as Partial<typeof crypto>).hash;

/** The hash recorded for an artifact's content in the state file. */
export function contentHash(content: string): string {
  if (content === "") return EMPTY;
  const hex = oneShot ? oneShot("sha256", content, "hex") : crypto.createHash("sha256").update(content, "utf8").digest("hex");
  // Joined, not a template: V8 keeps `a${b}` as a pair pointing at both parts until something
  // flattens it into a third string; a state keeps a hash for every file, so it is made flat.
  return ["sha256:", hex].join("");
}

/** Every folder an apply makes records the hash of "": made once. */
const EMPTY = ["sha256:", crypto.createHash("sha256").digest("hex")].join("");
