import { TendError, type Scope } from "@tend/core/contract";

/** Plan-time errors only dinit has: each says what is wrong on this host and what to do. */
export const dinitErrors = {
  noNetwork: (ref: string, name: string, dirs: string[]) =>
    new TendError(
      "TEND_DINIT_NO_NETWORK",
      `${ref} orders itself after \`network\`, which dinit reads as \`depends-on = network\`, but this host has no dinit service named \`network\` (looked in ${dirs.join(", ")}); dinit would refuse to load ${name}`,
      {
        hint: "Drop `network` from `after` on this host, or install the service that provides it (some distros name it otherwise, e.g. Chimera's `network.target`)",
        field: "after",
        resource: ref,
      },
    ),
  missingDependency: (ref: string, entry: string, name: string) =>
    new TendError(
      "TEND_DINIT_MISSING_DEPENDENCY",
      `${ref} orders itself after \`${entry}\`, which dinit reads as \`depends-on = tend-${entry}\`, but this spec declares no service \`${entry}\` with an exec; dinit would refuse to load ${name}`,
      { hint: `Declare service \`${entry}\` with an exec, or drop it from \`after\``, field: "after", resource: ref },
    ),
  noWaitsForD: (ref: string, name: string, via: string, viaFile: string) =>
    new TendError(
      "TEND_DINIT_NO_WAITS_FOR_D",
      `${ref} is to be enabled, but dinit's \`${via}\` service (${viaFile}) has no \`waits-for.d\` folder, so \`dinitctl enable ${name}\` has nowhere to record it`,
      { hint: `Add \`waits-for.d = ${via}.d\` to ${viaFile} and create that folder, or set \`desired.enabled: false\``, resource: ref },
    ),
  waitsForDMissing: (ref: string, name: string, dir: string, viaFile: string) =>
    new TendError(
      "TEND_DINIT_NO_WAITS_FOR_D",
      `${ref} is to be enabled, but the \`waits-for.d\` folder ${dir} named in ${viaFile} does not exist, so \`dinitctl enable ${name}\` cannot record it`,
      { hint: `Create ${dir}`, resource: ref },
    ),
  noViaService: (ref: string, name: string, via: string, dirs: string[]) =>
    new TendError(
      "TEND_DINIT_NO_BOOT_SERVICE",
      `${ref} is to be enabled, but this host has no dinit service \`${via}\` to enable ${name} from (looked in ${dirs.join(", ")})`,
      { hint: "dinit starts `boot` by default; give the host one with a `waits-for.d` folder", resource: ref },
    ),
  unreachable: (scope: Scope, why: string) =>
    new TendError(
      "TEND_DINIT_UNREACHABLE",
      `cannot reach ${scope.kind === "user" ? `${scope.user}'s dinit (dinit --user)` : "dinit"}: ${why}`,
      {
        hint:
          scope.kind === "user"
            ? "Start the user's service manager (`dinit --user`, usually at login), then plan again"
            : "Is dinit this host's init? Pass --init to name another one",
      },
    ),
};
