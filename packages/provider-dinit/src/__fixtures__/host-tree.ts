import type { HostTree } from "@tend/testkit";

export { writeHostTree, type HostTree } from "@tend/testkit";

/** The boot service of dinit's own examples (`waits-for.d = boot.d`), with its folder. */
export const BOOT: HostTree = {
  "/etc/dinit.d/boot": "type = internal\nwaits-for.d = boot.d\n",
  "/etc/dinit.d/boot.d": { dir: true },
};
