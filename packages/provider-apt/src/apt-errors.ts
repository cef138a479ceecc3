import { TendError, type TendErrorOptions } from "@tend/core/contract";

/** The apt provider's own errors (codes `TEND_APT_*`), each naming the resource and, where one is at fault, the field. */
export const aptErrors = {
  noDpkg: (ref: string, o?: TendErrorOptions) =>
    new TendError("TEND_APT_NO_DPKG", `${ref} needs apt, but this host has no dpkg database (/var/lib/dpkg/status)`, {
      hint: "@tend/provider-apt serves Debian and Ubuntu hosts; declare packages only for them (for example inside `if (host.os === \"linux\")` with a check of your own)",
      resource: ref,
      ...o,
    }),
  noPackage: (ref: string, name: string, o?: TendErrorOptions) =>
    new TendError("TEND_APT_NO_PACKAGE", `${ref}: no package ${name} is in this host's apt package lists`, {
      hint: "Check the name (`apt-cache policy NAME`), or add the source that has it and run `apt-get update`",
      resource: ref,
      field: "name",
      ...o,
    }),
  noVersion: (ref: string, version: string, offered: string[], o?: TendErrorOptions) =>
    new TendError("TEND_APT_NO_VERSION", `${ref}: version ${version} is not in this host's apt package lists`, {
      hint: offered.length > 0 ? `The lists offer ${offered.join(", ")}` : "The lists offer no version of it",
      resource: ref,
      field: "version",
      ...o,
    }),
  offline: (ref: string, what: string, o?: TendErrorOptions) =>
    new TendError("TEND_APT_OFFLINE", `${ref} would ${what}, and tend does not run apt inside an image root (--root)`, {
      hint: "Install packages when building the image (debootstrap --include, or apt-get in the image's build), then apply tend's spec to it",
      resource: ref,
      ...o,
    }),
  notAsAsked: (ref: string, why: string, o?: TendErrorOptions) =>
    new TendError("TEND_APT_NOT_AS_ASKED", `${ref}: after apt-get, ${why}`, { resource: ref, ...o }),
};
