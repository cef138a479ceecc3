/** sv exits with the number of directories it failed on (at most 99); 100 is a usage error. */
export const SV_ANSWERED = Array.from({ length: 100 }, (_, failed) => failed);

/**
 * Directories per sv call: keeps argv far below the kernel's limit for thousands of services.
 * sv is always given full paths (it looks bare names up in $SVDIR); sv takes no `--`, and a full
 * path starts with `/`, so it can never read as an option.
 */
export const SV_BATCH = 500;
