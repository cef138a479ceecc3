import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** An image root for `--root`: a folder that exists, as tend requires. */
export async function imageRoot(dir: string, name: string): Promise<string> {
  const root = join(dir, name);
  await mkdir(root, { recursive: true });
  return root;
}

/** A cron in an image root, as the cron provider looks for one: /etc/cron.d and an executable /usr/sbin/cron. */
export async function withCron(root: string): Promise<void> {
  await mkdir(join(root, "etc/cron.d"), { recursive: true });
  await mkdir(join(root, "usr/sbin"), { recursive: true });
  await writeFile(join(root, "usr/sbin/cron"), "", { mode: 0o755 });
}
