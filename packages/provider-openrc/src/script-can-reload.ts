const OPENRC_SHEBANG = /^#![ \t]*\S*\/(?:openrc-run|runscript)(?=\s|$)/;
// openrc-run runs only the commands these list, and only when a function of that name exists.
const RELOAD_LISTED = /^[ \t]*(?:extra_commands|extra_started_commands|opts)=[^\n]*(?:^|[\s"'=])reload(?=[\s"';]|$)/m;
const RELOAD_DEFINED = /^[ \t]*(?:function[ \t]+)?reload[ \t]*\(\)/m;
// A sysv/LSB script (Debian's openrc runs those too) takes the action as its argument.
const CASE_LABEL_RELOAD = /^[ \t]*\(?[ \t]*(?:[\w.*-]+[ \t]*\|[ \t]*)*reload[ \t]*(?:\|[ \t]*[\w.*-]+[ \t]*)*\)/m;
// Debian's /lib/init/init-d-script answers `reload` when the script defines do_reload.
const INIT_D_SCRIPT_RELOAD = /^[ \t]*do_reload[ \t]*\(\)/m;

/**
 * Whether `rc-service <name> reload` works for a distro script, read from the script itself:
 * an openrc-run script lists `reload` in `extra_commands`/`extra_started_commands` and defines
 * `reload()`; a sysv script handles a `reload` case (or is an init-d-script with `do_reload`).
 */
export function scriptCanReload(text: string): boolean {
  if (OPENRC_SHEBANG.test(text)) return RELOAD_LISTED.test(text) && RELOAD_DEFINED.test(text);
  return CASE_LABEL_RELOAD.test(text) || INIT_D_SCRIPT_RELOAD.test(text);
}
