import { mkdir } from "node:fs/promises";
import { join } from "node:path";

/** An image root for `--root`: a folder that exists, as tend requires. */
export async function imageRoot(dir: string, name: string): Promise<string> {
  const root = join(dir, name);
  await mkdir(root, { recursive: true });
  return root;
}
