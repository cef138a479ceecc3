import type { ChildProcess } from "node:child_process";
import { builtFile } from "../core-package.js";
import { childProcesses } from "../runner/child-process.js";
import type { FileOperation, OperationFailure } from "./file-operation.js";
import { operationsToJson } from "./operations-json.js";

/** How long a writer waits, idle, for the next batch before it is told to exit. */
const IDLE_MS = 2_000;
/** The most one batch may take. */
const BATCH_TIMEOUT_MS = 120_000;
/** The most a batch's answer may hold. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** Who a writer writes as. */
export interface WriterUser {
  uid: number;
  gid: number;
  name: string;
}

interface Batch {
  count: number;
  resolve: (results: (OperationFailure | null)[]) => void;
  timer: NodeJS.Timeout;
}

/** Writers by uid and gid, shared by every LocalHostFiles of this process. */
const writers = new Map<string, UserWriter>();

/**
 * Performs `operations` beneath `root` as `user`, in that user's writer child
 * (user-writer-main.ts): one result per operation, null when it worked. Owners are dropped (the
 * child writes as itself). Every failure of the child itself fails the whole batch, naming the
 * user.
 */
export function performAsUser(user: WriterUser, root: string, operations: FileOperation[]): Promise<(OperationFailure | null)[]> {
  const key = `${user.uid}:${user.gid}`;
  let writer = writers.get(key);
  if (!writer) {
    writer = new UserWriter(user);
    writers.set(key, writer);
  }
  const forUser = operations.map((operation) => ("owner" in operation ? { ...operation, owner: {} } : operation)) as FileOperation[];
  return writer.perform(operationsToJson(root, forUser), operations.length);
}

/**
 * A node child running as one user that performs batch after batch: one JSON line in, one JSON
 * line of results out, each batch done (synced) before its answer. An apply writes its journal
 * and its state in several batches, each durable before the next step; a child per batch cost a
 * node start each. The child is kept while batches come, then told to exit after IDLE_MS idle (it
 * ends at the end of its input); it never keeps tend running, and it ends with tend, whose end
 * closes that input.
 */
class UserWriter {
  private child: ChildProcess | undefined;
  private readonly batches: Batch[] = [];
  private answer = "";
  private stderr = "";
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly user: WriterUser) {}

  perform(json: string, count: number): Promise<(OperationFailure | null)[]> {
    return new Promise((resolve) => {
      const child = this.started();
      const timer = setTimeout(() => this.fail(`no answer within ${BATCH_TIMEOUT_MS / 1000} s`), BATCH_TIMEOUT_MS);
      this.batches.push({ count, resolve, timer });
      this.hold(true);
      try {
        child.stdin!.write(`${json}\n`);
      } catch (error) {
        this.fail((error as Error).message);
      }
    });
  }

  private started(): ChildProcess {
    clearTimeout(this.idle);
    if (this.child) return this.child;
    const child = childProcesses().spawn(process.execPath, [builtFile("files/user-writer-main.js")], {
      uid: this.user.uid,
      gid: this.user.gid,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child = child;
    child.stdout!.setEncoding("utf8");
    child.stderr!.setEncoding("utf8");
    this.answer = "";
    this.stderr = "";
    // What a child let go of (idle, or failed) says or does later is no one's business.
    const current = () => this.child === child;
    child.stdout!.on("data", (chunk: string) => {
      if (current()) this.read(chunk);
    });
    child.stderr!.on("data", (chunk: string) => {
      if (current()) this.stderr = (this.stderr + chunk).slice(-4096);
    });
    child.stdin!.on("error", () => undefined); // a child gone: its exit fails what waits
    child.on("error", (error) => {
      if (current()) this.fail(error.message);
    });
    child.on("exit", (code, signal) => {
      if (current()) this.fail(this.stderr.trim() || `the writer exited ${signal ?? code}`);
    });
    return child;
  }

  private read(chunk: string): void {
    this.answer += chunk;
    if (this.answer.length > MAX_ANSWER_BYTES) return this.fail("its answer was too long");
    let newline: number;
    while ((newline = this.answer.indexOf("\n")) >= 0) {
      const line = this.answer.slice(0, newline);
      this.answer = this.answer.slice(newline + 1);
      const batch = this.batches.shift();
      if (!batch) return this.fail("it answered a batch it was not given");
      clearTimeout(batch.timer);
      let results: (OperationFailure | null)[];
      try {
        results = JSON.parse(line) as (OperationFailure | null)[];
      } catch {
        batch.resolve(this.failures(batch.count, "its answer was not JSON"));
        return this.fail("its answer was not JSON");
      }
      batch.resolve(results);
    }
    if (this.batches.length === 0) this.hold(false);
  }

  /** While batches wait, the child and its pipes keep tend running; idle, they do not, and the child is told to exit after IDLE_MS. */
  private hold(busy: boolean): void {
    const child = this.child;
    if (!child) return;
    for (const handle of [child, child.stdin, child.stdout, child.stderr] as ({ ref(): void; unref(): void } | null)[]) {
      if (busy) handle?.ref();
      else handle?.unref();
    }
    if (!busy) {
      // Let go of first, so that a batch that comes while it exits starts another.
      this.idle = setTimeout(() => {
        if (this.child !== child || this.batches.length > 0) return;
        this.child = undefined;
        child.stdin!.end();
      }, IDLE_MS);
      this.idle.unref();
    }
  }

  /** Fails every batch still waiting and lets the child go: the next batch starts another. */
  private fail(why: string): void {
    const child = this.child;
    this.child = undefined;
    clearTimeout(this.idle);
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    for (const batch of this.batches.splice(0)) {
      clearTimeout(batch.timer);
      batch.resolve(this.failures(batch.count, why));
    }
  }

  private failures(count: number, why: string): OperationFailure[] {
    const message = `writing as ${this.user.name} (uid ${this.user.uid}) failed: ${why}`;
    return Array.from({ length: count }, () => ({ code: "TEND_UNSAFE_PATH", message }));
  }
}
