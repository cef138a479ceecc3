import type { Command, ReadContext } from "@tend/core/contract";

/**
 * Whom sv acts as. A user's services, when tend runs as someone else (root applying
 * `--user NAME`), are reached as that user: their folders are the user's own, and sv follows
 * whatever links are in them, so sv run as root could be sent by a planted link to write its
 * control letter into any file, or to open any device, with root's rights. Otherwise tend's own.
 */
export function svAsUser(ctx: ReadContext): Pick<Command, "asUser"> {
  if (ctx.scope.kind !== "user" || ctx.scope.uid === process.geteuid?.()) return {};
  return { asUser: { uid: ctx.scope.uid, gid: ctx.scope.gid } };
}

/**
 * Whether sv's reads and control letters are done in tend's own process (this machine's files,
 * as tend's own user): a process per reading costs tend's main thread a fork of itself. A user's
 * services reached as that user go through sv (see svAsUser): no process can drop to another user
 * and back.
 */
export function svInProcess(ctx: ReadContext): boolean {
  return ctx.files.local === true && svAsUser(ctx).asUser === undefined;
}
