/** The signals `reloadSignal` may name: those a program can be asked to reload on. */
export const SIGNALS = ["HUP", "INT", "QUIT", "USR1", "USR2", "TERM", "WINCH", "ALRM", "CONT"] as const;

export type Signal = (typeof SIGNALS)[number];
