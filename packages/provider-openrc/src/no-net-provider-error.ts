import { TendError } from "@tend/core/contract";

/**
 * `after: ["network"]` becomes `need net`, and OpenRC refuses to start a service that needs
 * something nothing provides (Debian's openrc ships no `net` provider at all).
 */
export function noNetProviderError(ref: string): TendError {
  return new TendError(
    "TEND_OPENRC_NO_NET",
    `${ref} orders itself after "network", which OpenRC writes as \`need net\`, but no service on this host provides \`net\`, so OpenRC would never start it`,
    {
      hint: 'Drop "network" from `after` on this host, or install a service that provides net (Alpine\'s networking, Gentoo\'s net.*), or set rc_provide="net" in the /etc/conf.d file of the one that brings the network up',
      field: "after",
      resource: ref,
    },
  );
}
