/**
 * The process groups of the commands tend is running now (each command leads one: see
 * ProcessRunner), and who wants to hear when they change: the scope's lock names them in its
 * file, so that after tend is killed the next apply can wait for what it left running.
 */
const running = new Set<number>();
let listener: ((groups: number[]) => void) | undefined;

export function commandStarted(group: number): void {
  running.add(group);
  listener?.([...running]);
}

export function commandEnded(group: number): void {
  if (!running.delete(group)) return;
  listener?.([...running]);
}

export function runningGroups(): number[] {
  return [...running];
}

/** Hears every change of the running groups (one listener: the lock held), or none with undefined. */
export function watchCommandGroups(next: ((groups: number[]) => void) | undefined): void {
  listener = next;
}

/** Whether any process of `group` is alive (signal 0; a group another user owns is not tend's). */
export function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}
