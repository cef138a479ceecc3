/**
 * s6 2.11 has no cgroups and signals only the pid it supervises (`s6-svc -d`, `-r` and the
 * `down-signal` all go to that one process; the process-group commands `s6-svc -P/-C/-K` and the
 * pgid argument of `./finish` came with s6 2.13). What it does give: s6-supervise starts `./run`
 * as the leader of a new session (s6-supervise(8): "always spawns its child in a new session";
 * `nosetsid` is gone since 2.10), and runs `./finish` once that process has died, before
 * anything else, and waits for it on `s6-svc -wD` (which s6-rc uses to bring a longrun down).
 *
 * So `./run` notes its pid, which is the session's and the process group's id, in
 * {@link SESSION_FILE} before it becomes the program, and `./finish` ends whatever is left of
 * that session: the other side of a pipeline, a forked child that moved to a process group of its
 * own. Nothing the program started outlives a stop, a restart, a removal or its own death, while
 * `s6-svc -h` still reaches the program alone.
 */

/** Where `./run` notes its session (s6-supervise keeps its own state beside it). */
export const SESSION_FILE = "supervise/tend-session";

/** How long `./finish` lets the session's processes end after TERM before it kills them (tenths of a second; below s6's 5 s `timeout-finish`). */
const TERM_GRACE_TENTHS = 30;

/** The last two lines of `./run`: note the session it leads, then become the program. */
export function startAsSessionLeader(argv: string): string[] {
  return [`echo $$ > ${SESSION_FILE} || exit 1`, `exec ${argv}`];
}

/**
 * The first lines of `./finish`: TERM (and CONT) to the session's process group and to every
 * other process still in the session, then KILL to whatever of the session still runs after the
 * grace time. s6 2.13 and later pass the process group as `$4`, the same id; older ones have it
 * only from `./run`. The whole process table is read twice (before TERM and before KILL, which
 * also catches what was forked meanwhile); the grace loop only looks at the processes it found,
 * so it stays well within s6's 5 s for a `finish` on a busy host. Zombies do not count: their
 * parent reaps them in its own time.
 */
export function endSessionLines(): string[] {
  return [
    "# End what is left of the program's session (s6-supervise made ./run its leader): TERM, then KILL after 3 s",
    "session_members() {",
    "  members=",
    "  for stat in /proc/[0-9]*/stat; do",
    '    { read -r line < "$stat"; } 2>/dev/null || continue',
    "    set -- ${line##*) }",
    '    [ "$4" = "$session" ] && [ "$1" != Z ] && members="$members ${line%% *}"',
    "  done",
    '  [ -n "$members" ]',
    "}",
    "members_running() {",
    "  running=",
    "  for pid in $members; do",
    '    { read -r line < "/proc/$pid/stat"; } 2>/dev/null || continue',
    "    set -- ${line##*) }",
    '    [ "$4" = "$session" ] && [ "$1" != Z ] && running="$running $pid"',
    "  done",
    "  members=$running",
    '  [ -n "$running" ]',
    "}",
    `session=\${4:-$(cat ${SESSION_FILE} 2>/dev/null)}`,
    `rm -f ${SESSION_FILE}`,
    'if [ -n "$session" ] && session_members; then',
    '  kill -TERM -"$session" $members 2>/dev/null',
    '  kill -CONT -"$session" $members 2>/dev/null',
    "  tries=0",
    `  while [ "$tries" -lt ${TERM_GRACE_TENTHS} ] && members_running; do sleep 0.1; tries=$((tries + 1)); done`,
    "  if session_members; then",
    '    echo "tend: killing what is left of session $session, still running 3 s after TERM"',
    "    kill -KILL $members 2>/dev/null",
    "  fi",
    "fi",
  ];
}
