/** launchctl's exit codes that tend acts on (errno values, as launchctl reports them). */
export const LAUNCHCTL_EXIT = {
  /** ESRCH, `Boot-out failed: 3: No such process`: nothing to boot out. */
  noSuchProcess: 3,
  /** EIO, `Bootstrap failed: 5: Input/output error`: among other causes, the label is still draining. */
  inputOutput: 5,
  /** EINPROGRESS, `Boot-out failed: 36: Operation now in progress`: bootout goes on in the background. */
  inProgress: 36,
  /** EALREADY, `Bootstrap failed: 37: Operation already in progress`. */
  alreadyInProgress: 37,
  /** `Could not find domain for user gui: 501`: no GUI session for that user. */
  noDomain: 112,
  /** `Could not find service "tend.web" in domain for system`: the label is not loaded. */
  noService: 113,
  /** `Bootstrap failed: 119: Service is disabled`: a disabled label is never bootstrapped (not retried). */
  serviceDisabled: 119,
} as const;
