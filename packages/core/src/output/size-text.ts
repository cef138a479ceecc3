/** A size as people read it, in powers of 1024: KiB up to a MiB (rounded up), MiB beyond, to a tenth. */
export function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
