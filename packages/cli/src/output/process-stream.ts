import type { OutStream } from "../run-cli.js";

/** What a process stream needs to be: Node's stdout or stderr, or a stand-in for them. */
export interface WritableLike {
  write(text: string): unknown;
  on(event: "error", listener: (error: NodeJS.ErrnoException) => void): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** A process stream that keeps what stopped it. */
export interface ProcessStream extends OutStream {
  /** The error that stopped the stream when it was not its reader going away, once there is one. */
  readonly lost: NodeJS.ErrnoException | undefined;
}

/**
 * stdout or stderr as tend writes to them. Output never costs a command its work: once the
 * stream takes no more, further output is dropped, and tend finishes what it was doing (an apply
 * is never cut short by its log).
 * - Its reader went away (EPIPE, `tend render | head -1`): the rest is dropped quietly, and the exit
 *   status is the command's own.
 * - Anything else, such as a full disk under `tend apply > apply.log` (ENOSPC, EDQUOT, EFBIG, EIO):
 *   the error is kept as `lost`, for `lostOutputMessage` when the command ends.
 *
 * A write to a file throws at once; one to a pipe fails later, as an `error` event.
 */
export function processStream(stream: WritableLike): ProcessStream {
  let stopped = false;
  let lost: NodeJS.ErrnoException | undefined;
  const stop = (error: NodeJS.ErrnoException) => {
    if (!stopped && error.code !== "EPIPE") lost = error;
    stopped = true;
  };
  stream.on("error", stop);
  return {
    write(text: string) {
      if (stopped) return true;
      try {
        return stream.write(text);
      } catch (error) {
        stop(error as NodeJS.ErrnoException);
        return true;
      }
    },
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
    get lost() {
      return lost;
    },
  };
}

/** The error line (and hint) that says a stream's output was lost from `error` on. */
export function lostOutputMessage(name: string, error: NodeJS.ErrnoException): string {
  const full = error.code === "ENOSPC" || error.code === "EDQUOT";
  const why = error.code ? `${error.code}: ${error.message.replace(/^[A-Z]+: /, "").replace(/, write$/, "")}` : error.message;
  return (
    `error ${full ? "TEND_DISK_FULL" : "TEND_IO"}: could not write to ${name} (${why}); tend finished the command, but what it printed from there on is lost\n` +
    `  hint ${full ? "Free space where the output goes, or send it elsewhere, and run the command again" : "Check where the output goes, and run the command again"}\n`
  );
}
