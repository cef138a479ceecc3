# tend's file operations on a host reached over ssh: POSIX sh and coreutils-level tools only.
#
# A shell loads this library once: a long-lived session keeps its functions (and its text in
# $TEND_FILES_LIB, which a shell started for one script reads first: see ShellLibrary). Each script
# then runs in a subshell: `hf_begin ROOT` (ROOT: the folder standing for `/`: `/` on a live host;
# tests use a temp folder), then one call per operation; each prints one result line:
#   IDX<TAB>ok                      or   IDX<TAB>fail<TAB>KIND<TAB>DETAIL
# and reads print records that start with `@IDX<TAB>`.
#
# Host paths resolve beneath ROOT the way the init sees them there (a link on the way is followed,
# an absolute target starts again at ROOT, `..` never climbs above it). A write then steps into
# the physical folder one part at a time from ROOT, refusing any part that is a symlink, and
# checks the physical working folder (`cd -P` sets PWD to it) is that folder: a part swapped for a
# link between the check and the `cd` is caught. Temp files are made with noclobber in the folder
# itself and renamed over their target (a rename replaces a link, never follows it). As root, an
# operation whose path runs through a folder or link a non-root user owns is performed as that
# user (sudo -n -u, or su).
#
# Loading forks (the constants below) once per shell; a script itself forks only for what it
# reads or writes.

NL='
'
TAB='	'
US=$(printf '\037')
RS=$(printf '\036')
ME=$(id -u)

# hf_begin ROOT [BATCH]: a script's start (in its own subshell: the options and variables stay
# there). BATCH names the reads that may be batched (see i_end): f files, l links, m times.
hf_begin() {
  set -u
  unset CDPATH
  umask 022
  ROOT=$1
  if [ "$ROOT" = / ]; then
    ROOTP=
  else
    ROOTP=$(cd -P -- "$ROOT" 2>/dev/null && pwd -P) || ROOTP=$ROOT
    [ "$ROOTP" = / ] && ROOTP=
  fi
  # Folder readings seen: RS-separated records `hostdir US phys US rest US owners US bad`.
  RC=$RS
  # Writes staged and waiting for the commit (settle).
  S_COUNT=0
  SYNC_DIRS=
  EXHAUSTED=
  # Reads waiting for i_end: `IDX TAB PATH NL` each.
  B_ALLOW=${2-}
  B_FILES=
  B_LINKS=
  B_TIMES=
  B_ROOMS=
  B_DIRS=
}

ok() { printf '%s\tok\n' "$1"; }
# fail IDX KIND [DETAIL]: DETAIL on one line.
fail() {
  _d=${3-}
  case $_d in *"$NL"*|*"$TAB"*) _d=$(printf '%s' "$_d" | tr '\n\t' '  ') ;; esac
  printf '%s\tfail\t%s\t%s\n' "$1" "$2" "$_d"
}

# next_part VAR: takes the first `/`-separated part off $_todo into VAR.
next_part() {
  case $_todo in
    */*) eval "$1=\${_todo%%/*}"; _todo=${_todo#*/} ;;
    *) eval "$1=\$_todo"; _todo= ;;
  esac
}

# note_owner PATH: a non-root owner of a folder or link on the way (only root cares).
note_owner() {
  [ "$ME" = 0 ] || return 0
  if [ ! -L "$1" ] && [ -O "$1" ]; then return 0; fi
  # shellcheck disable=SC2046
  set -- $(ls -ldn -- "$1" 2>/dev/null)
  [ -n "${3-}" ] && [ "$3" != 0 ] || return 0
  case " $R_OWNERS " in *" $3 "*) ;; *) R_OWNERS="${R_OWNERS:+$R_OWNERS }$3" ;; esac
}

# follow PART: PART (below R_PHYS) is a link: resolve it textually beneath ROOT.
follow() {
  _todo=$1
  _links=0
  while [ -n "$_todo" ]; do
    next_part _c
    case $_c in
      ''|.) continue ;;
      ..) R_PHYS=${R_PHYS%/*}; continue ;;
    esac
    _cand=$ROOTP$R_PHYS/$_c
    if [ -L "$_cand" ]; then
      _links=$((_links + 1))
      [ "$_links" -le 40 ] || { R_BAD=loop; return; }
      note_owner "$_cand"
      _t=$(readlink -- "$_cand") || { R_BAD=gone; return; }
      case $_t in /*) R_PHYS= ;; esac
      _todo=$_t${_todo:+/$_todo}
    elif [ -d "$_cand" ]; then
      note_owner "$_cand"
      R_PHYS=$R_PHYS/$_c
    elif [ -e "$_cand" ]; then
      R_BAD=notdir; return
    else
      # Missing from here on: made when written (never through `..`).
      R_REST=$_c${_todo:+/$_todo}
      case /$R_REST/ in */../*|*/./*) R_BAD=dangling ;; esac
      return
    fi
  done
}

# step PART: from the reading of a folder to the reading of PART inside it.
step() {
  [ -z "$R_BAD" ] || return 0
  if [ -n "$R_REST" ]; then R_REST=$R_REST/$1; return 0; fi
  _cand=$ROOTP$R_PHYS/$1
  if [ -L "$_cand" ]; then follow "$1"
  elif [ -d "$_cand" ]; then note_owner "$_cand"; R_PHYS=$R_PHYS/$1
  elif [ -e "$_cand" ]; then R_BAD=notdir
  else R_REST=$1
  fi
}

# cached HOSTDIR: loads a remembered reading into R_*.
cached() {
  case $RC in
    *"$RS$1$US"*)
      _x=${RC#*"$RS$1$US"}; _x=${_x%%"$RS"*}
      R_PHYS=${_x%%"$US"*}; _x=${_x#*"$US"}
      R_REST=${_x%%"$US"*}; _x=${_x#*"$US"}
      R_OWNERS=${_x%%"$US"*}; R_BAD=${_x#*"$US"}
      return 0 ;;
  esac
  return 1
}

# resolve HOSTDIR: R_PHYS (the deepest existing folder, physical, relative to ROOT), R_REST (the
# parts below it still to make), R_OWNERS (non-root uids owning a folder or link on the way),
# R_BAD (why the way is refused: notdir, loop, dangling, gone).
resolve() {
  R_PHYS= R_REST= R_OWNERS= R_BAD=
  [ "$1" = / ] && return 0
  cached "$1" && return 0
  _up=$1
  _down=
  while :; do
    _down=${_up##*/}${_down:+/$_down}
    _up=${_up%/*}
    [ -n "$_up" ] || { R_PHYS= R_REST= R_OWNERS= R_BAD=; _up=/; break; }
    cached "$_up" && break
  done
  while [ -n "$_down" ]; do
    case $_down in */*) _p=${_down%%/*}; _down=${_down#*/} ;; *) _p=$_down; _down= ;; esac
    [ -n "$_p" ] || continue
    _up=${_up%/}/$_p
    step "$_p"
    RC=$RC$_up$US$R_PHYS$US$R_REST$US$R_OWNERS$US$R_BAD$RS
  done
}

# enter PHYS REST MODE: into the physical folder PHYS (relative to ROOT), never through a link,
# then making each REST folder with MODE (none made without MODE: E=absent); checks pwd -P.
# Sets HERE to where it arrived (relative to ROOT); E says why not.
enter() {
  E=
  cd -P -- "$ROOTP/" 2>/dev/null || { E=gone; return 1; }
  _todo=${1#/}
  while [ -n "$_todo" ]; do
    next_part _c
    [ -n "$_c" ] || continue
    if [ -L "./$_c" ]; then E=link; return 1; fi
    cd -P -- "./$_c" 2>/dev/null || { E=moved; return 1; }
  done
  HERE=$1
  if [ -n "$2" ]; then
    [ -n "$3" ] || { E=absent; return 1; }
    _todo=$2
    while [ -n "$_todo" ]; do
      next_part _c
      [ -n "$_c" ] || continue
      if [ -L "./$_c" ]; then E=link; return 1; fi
      if [ ! -d "./$_c" ]; then
        if [ -e "./$_c" ]; then E=notdir; return 1; fi
        _err=$(mkdir -m "$3" -- "./$_c" 2>&1) || { [ -d "./$_c" ] && [ ! -L "./$_c" ]; } || { E="errno $_err"; return 1; }
        note_sync "$ROOTP$HERE"
      fi
      cd -P -- "./$_c" 2>/dev/null || { E=moved; return 1; }
      HERE=$HERE/$_c
    done
  fi
  [ "$PWD" = "${ROOTP}${HERE:-/}" ] || [ "$PWD" = "$ROOTP$HERE" ] || { E=moved; return 1; }
}

note_sync() {
  case "$NL$SYNC_DIRS" in *"$NL$1$NL"*) ;; *) SYNC_DIRS=$SYNC_DIRS$1$NL ;; esac
}

# kind_of NAME (in the current folder): absent, link, dir, file or other.
kind_of() {
  if [ -L "./$1" ]; then K=link
  elif [ -d "./$1" ]; then K=dir
  elif [ -f "./$1" ]; then K=file
  elif [ -e "./$1" ]; then K=other
  else K=absent
  fi
}

# refuse IDX NAME: fails IDX for what is at NAME (for a write that may replace only a file).
refuse() {
  case $K in
    link) fail "$1" target-link "$(readlink -- "./$2")" ;;
    dir) fail "$1" target-dir ;;
    *) fail "$1" target-other ;;
  esac
}

# chown_to UID GID PATH [-h]: as root only; `-` for none.
chown_to() {
  [ "$ME" = 0 ] && [ "$1" != - ] || return 0
  if [ "$2" = - ]; then chown ${4:+-h} -- "$1" "$3"; else chown ${4:+-h} -- "$1:$2" "$3"; fi
}

# holds NAME EXPECT: whether NAME (in the current folder, its kind in K) still holds what the
# plan read there. EXPECT is `-` (anything), `absent`, or CRC:SIZE (cksum's) of a file's bytes
# or a link's target: an edit made since the plan read it is never replaced or deleted unseen.
holds() {
  case $2 in
    -) return 0 ;;
    absent) [ "$K" = absent ]; return ;;
  esac
  case $K in
    file) _h=$(cksum < "./$1") || return 1 ;;
    link) _h=$(printf '%s' "$(readlink -- "./$1")" | cksum) || return 1 ;;
    *) return 1 ;;
  esac
  set -- $_h "$2"
  [ "$1:$2" = "$3" ]
}

# stage IDX TMP NAME DATA EXPECT: a temp file (or link) in HERE, renamed over NAME at the commit
# if NAME still holds EXPECT (see holds).
stage() {
  S_COUNT=$((S_COUNT + 1))
  eval "SI_$S_COUNT=\$1 ST_$S_COUNT=\$2 SN_$S_COUNT=\$3 SD_$S_COUNT=\$4 SE_$S_COUNT=\$5 SP_$S_COUNT=\$HERE"
}

# content CONTENT [bytes]: prints CONTENT as it is, or with `bytes` as a printf format of octal
# escapes (bytes that are not UTF-8, which the script's text cannot carry).
content() {
  if [ "$2" = bytes ]; then printf "$1"; else printf '%s' "$1"; fi
}

# w_write IDX PHYS REST NAME TMP MODE UID GID EXPECT CONTENT [bytes]
w_write() {
  enter "$2" "$3" 0755 || { fail "$1" "$E"; return; }
  kind_of "$4"
  case $K in absent|file) ;; *) refuse "$1" "$4"; return ;; esac
  if ! _err=$( (umask 077; set -C; content "${10}" "${11:-}" > "./$5") 2>&1); then
    rm -f -- "./$5"
    # dash's printf names no errno ("I/O error"): the same bytes through cat, which names it.
    case $_err in
      *"I/O error"*) _err=$( (umask 077; set -C; content "${10}" "${11:-}" | cat > "./$5") 2>&1) ;;
      *) false ;;
    esac || {
      rm -f -- "./$5"
      case $_err in *"No space"*|*"quota"*) EXHAUSTED=1 ;; esac
      fail "$1" errno "$_err"; return
    }
  fi
  if ! _err=$( { chmod "$6" -- "./$5" && chown_to "$7" "$8" "./$5"; } 2>&1); then
    rm -f -- "./$5"; fail "$1" errno "$_err"; return
  fi
  stage "$1" "$5" "$4" 1 "$9"
}

# w_symlink IDX PHYS REST NAME TMP UID GID EXPECT TARGET
w_symlink() {
  enter "$2" "$3" 0755 || { fail "$1" "$E"; return; }
  kind_of "$4"
  case $K in dir|other) fail "$1" target-dir-or-device; return ;; esac
  if ! _err=$( { ln -s -- "$9" "./$5" && chown_to "$6" "$7" "./$5" -h; } 2>&1); then
    rm -f -- "./$5"; fail "$1" errno "$_err"; return
  fi
  stage "$1" "$5" "$4" 0 "$8"
}

# w_mkdir IDX PHYS REST NAME MODE UID GID
w_mkdir() {
  enter "$2" "$3" "$5" || { fail "$1" "$E"; return; }
  kind_of "$4"
  case $K in
    link) fail "$1" target-link-folder; return ;;
    file|other) fail "$1" target-file-folder; return ;;
    absent)
      _err=$(mkdir -m "$5" -- "./$4" 2>&1) || { [ -d "./$4" ] && [ ! -L "./$4" ]; } || { fail "$1" errno "$_err"; return; }
      note_sync "$ROOTP$HERE" ;;
  esac
  _err=$( { chmod "$5" -- "./$4" && chown_to "$6" "$7" "./$4"; } 2>&1) || { fail "$1" errno "$_err"; return; }
  ok "$1"
}

# w_remove IDX PHYS REST NAME KIND(file|symlink) EXPECT: deletes only what tend wrote, and only
# while it holds EXPECT (see holds).
w_remove() {
  settle
  [ -z "$3" ] || { ok "$1"; return; }
  enter "$2" "" "" || { fail "$1" "$E"; return; }
  kind_of "$4"
  case $K/$5 in
    absent/*) ok "$1"; return ;;
    file/*|link/symlink) ;;
    link/file) fail "$1" now-link; return ;;
    dir/*) fail "$1" now-dir; return ;;
    *) fail "$1" now-other; return ;;
  esac
  holds "$4" "$6" || { fail "$1" changed; return; }
  _err=$(rm -f -- "./$4" 2>&1) || { fail "$1" errno "$_err"; return; }
  note_sync "$ROOTP$HERE"
  ok "$1"
}

# w_attrs IDX PHYS REST NAME KIND(file|dir) MODE UID GID EXPECT: a file's or folder's mode and
# owner set in place, its bytes and times left as they are; only on what KIND says, and a file
# only while it holds EXPECT (see holds).
w_attrs() {
  settle
  [ -z "$3" ] || { fail "$1" changed; return; }
  enter "$2" "" "" || { fail "$1" "$E"; return; }
  kind_of "$4"
  case $K/$5 in
    file/file|dir/dir) ;;
    absent/*) fail "$1" changed; return ;;
    link/*) fail "$1" now-link; return ;;
    dir/*) fail "$1" now-dir; return ;;
    file/*) fail "$1" now-file; return ;;
    *) fail "$1" now-other; return ;;
  esac
  holds "$4" "$9" || { fail "$1" changed; return; }
  _err=$( { chmod "$6" -- "./$4" && chown_to "$7" "$8" "./$4"; } 2>&1) || { fail "$1" errno "$_err"; return; }
  ok "$1"
}

# w_rmdir IDX PHYS REST NAME EPHEMERAL...: deletes a folder holding nothing but EPHEMERAL entries.
w_rmdir() {
  settle
  [ -z "$3" ] || { ok "$1"; return; }
  enter "$2" "" "" || { fail "$1" "$E"; return; }
  _i=$1 _n=$4
  shift 4
  kind_of "$_n"
  case $K in absent) ok "$_i"; return ;; dir) ;; *) fail "$_i" now-not-folder; return ;; esac
  for _e in "./$_n"/* "./$_n"/.[!.]* "./$_n"/..?*; do
    [ -e "$_e" ] || [ -L "$_e" ] || continue
    _b=${_e##*/}
    _known=
    for _k in "$@"; do [ "$_k" = "$_b" ] && _known=1; done
    # Something not ours is inside: keep the folder.
    [ -n "$_known" ] || { ok "$_i"; return; }
  done
  for _e in "./$_n"/* "./$_n"/.[!.]* "./$_n"/..?*; do
    [ -e "$_e" ] || [ -L "$_e" ] || continue
    _err=$(rm -rf -- "$_e" 2>&1) || { fail "$_i" errno "$_err"; return; }
  done
  _err=$(rmdir -- "./$_n" 2>&1) || { fail "$_i" errno "$_err"; return; }
  RC=$RS
  note_sync "$ROOTP$HERE"
  ok "$_i"
}

# w_clean IDX PHYS REST PREFIX: deletes temp files an interrupted write left (PREFIX<pid>-<hex>).
w_clean() {
  settle
  [ -z "$3" ] || { ok "$1"; return; }
  enter "$2" "" "" || { [ "$E" = moved ] || [ "$E" = link ] || { ok "$1"; return; }; fail "$1" "$E"; return; }
  for _f in "./$4"*; do
    _s=${_f#"./$4"}
    case $_s in [0-9]*-[0-9a-f]*) ;; *) continue ;; esac
    case ${_s%%-*} in *[!0-9]*) continue ;; esac
    case ${_s#*-} in *[!0-9a-f]*) continue ;; esac
    if [ -f "$_f" ] || [ -L "$_f" ]; then
      _err=$(rm -f -- "$_f" 2>&1) || { fail "$1" errno "$_err"; return; }
      note_sync "$ROOTP$HERE"
    fi
  done
  ok "$1"
}

# w_append IDX PHYS REST NAME MODE CONTENT: appends and syncs (the state journal).
w_append() {
  settle
  enter "$2" "$3" 0755 || { fail "$1" "$E"; return; }
  kind_of "$4"
  case $K in absent|file) ;; *) refuse "$1" "$4"; return ;; esac
  if [ "$K" = absent ]; then
    _err=$( { (umask 077; set -C; : > "./$4") && chmod "$5" -- "./$4"; } 2>&1) || { fail "$1" errno "$_err"; return; }
    note_sync "$ROOTP$HERE"
  fi
  [ ! -L "./$4" ] || { fail "$1" link; return; }
  _err=$( (printf '%s' "$6" >> "./$4") 2>&1) || {
    # dash's printf names no errno; what it appended cannot be taken back, so the room is asked.
    case $_err in *"I/O error"*) [ "$(stat -f -c %a . 2>/dev/null)" != 0 ] || _err="$_err: No space left on device" ;; esac
    fail "$1" errno "$_err"; return
  }
  sync -- "./$4" 2>/dev/null || sync
  flush_syncs
  ok "$1"
}

flush_syncs() {
  [ -n "$SYNC_DIRS" ] || return 0
  _todo=$SYNC_DIRS
  set --
  while [ -n "$_todo" ]; do
    _d=${_todo%%"$NL"*}; _todo=${_todo#*"$NL"}
    set -- "$@" "$_d"
  done
  sync -- "$@" 2>/dev/null || sync
  SYNC_DIRS=
}

# mv_over TMP NAME: renames TMP over NAME in the current folder (a link to a folder is replaced,
# never moved into).
mv_over() {
  if [ -d "./$2" ]; then
    mv -f -T -- "./$1" "./$2" 2>/dev/null && return 0
    rm -f -- "./$2" && mv -f -- "./$1" "./$2"
  else
    mv -f -- "./$1" "./$2"
  fi
}

# settle: commits what is staged: the temp files made durable, then renamed into place in
# order, then their folders synced. Out of space while staging: nothing staged is renamed.
settle() {
  if [ "$S_COUNT" -gt 0 ]; then
    _n=0
    set --
    while [ "$_n" -lt "$S_COUNT" ]; do
      _n=$((_n + 1))
      eval "_d=\$SD_$_n _p=\$SP_$_n _t=\$ST_$_n"
      [ "$_d" = 1 ] && set -- "$@" "$ROOTP$_p/$_t"
    done
    [ "$#" -eq 0 ] || sync -- "$@" 2>/dev/null || sync
    _n=0
    while [ "$_n" -lt "$S_COUNT" ]; do
      _n=$((_n + 1))
      eval "_i=\$SI_$_n _p=\$SP_$_n _t=\$ST_$_n _m=\$SN_$_n _d=\$SD_$_n _e=\$SE_$_n"
      if ! enter "$_p" "" ""; then
        fail "$_i" "$E"; continue
      fi
      if [ -n "$EXHAUSTED" ]; then rm -f -- "./$_t"; fail "$_i" batch; continue; fi
      kind_of "$_m"
      if [ "$_d" = 1 ]; then
        case $K in absent|file) ;; *) rm -f -- "./$_t"; refuse "$_i" "$_m"; continue ;; esac
      else
        case $K in dir|other) rm -f -- "./$_t"; fail "$_i" target-dir-or-device; continue ;; esac
      fi
      holds "$_m" "$_e" || { rm -f -- "./$_t"; fail "$_i" changed; continue; }
      if _err=$(mv_over "$_t" "$_m" 2>&1); then
        note_sync "$ROOTP$HERE"; ok "$_i"
      else
        rm -f -- "./$_t"; fail "$_i" errno "$_err"
      fi
    done
    S_COUNT=0
    EXHAUSTED=
  fi
  flush_syncs
}

# as_user UID: runs the script on stdin as the user with that uid.
as_user() {
  _name=$(sed -n "s/^\\([^:]*\\):[^:]*:$1:.*/\\1/p" /etc/passwd | sed -n 1p)
  [ -n "$_name" ] || return 2
  if command -v sudo >/dev/null 2>&1; then sudo -n -u "$_name" -- /bin/sh -s
  else su -s /bin/sh "$_name" -c '/bin/sh -s'
  fi
}

# q VALUE: VALUE single-quoted for a shell, byte for byte.
q() {
  _q=$(printf '%s.' "$1" | sed "s/'/'\\\\''/g")
  printf "'%s'" "${_q%.}"
}

# op IDX KIND HOSTDIR NAME [ARGS...] [OWNER-UID]: one operation on NAME in HOSTDIR, performed
# here, or as the user who owns a folder or link on its way (all of its output is one result).
# OWN is the uid the operation gives its file ("-" for none): in a user's folder only that user.
op() {
  _i=$1 _k=$2 _h=$3 _own=$4
  shift 4
  resolve "$_h"
  if [ -n "$R_BAD" ]; then fail "$_i" "$R_BAD"; return; fi
  case $R_OWNERS in
    '') "w_$_k" "$_i" "$R_PHYS" "$R_REST" "$@"; return ;;
    *' '*) fail "$_i" users "$R_OWNERS"; return ;;
  esac
  if [ "$_own" != - ] && [ "$_own" != "$R_OWNERS" ]; then fail "$_i" owner "$R_OWNERS $_own"; return; fi
  settle
  _s="w_$_k $_i $(q "$R_PHYS") $(q "$R_REST")"
  for _a in "$@"; do _s="$_s $(q "$_a")"; done
  if ! printf '%s\nhf_begin %s\n%s\nsettle\n' "$TEND_FILES_LIB" "$(q "$ROOT")" "$_s" | as_user "$R_OWNERS"; then
    fail "$_i" as-user "$R_OWNERS"
  fi
}

# Reads. A regular file, a link, a folder's modes or a modification time is read at i_end, with
# those of the rest of the script, when BATCH allows it: one od, one cksum and one stat for all
# the files (tend splits the bytes by the sizes cksum gives and checks each part's CRC), one
# readlink for all the links, one stat for all the folders, one for all the times. tend checks
# each batch and reads again one by one what does not add up (a file changed meanwhile, a tool
# that takes one path only). Nothing under /proc or /sys is batched: its content changes between
# two reads.

# batch KIND IDX PATH: whether PATH waits for i_end (a path with a newline never does).
batch() {
  case $B_ALLOW in *"$1"*) ;; *) return 1 ;; esac
  case $3 in *"$NL"*|"$ROOTP"/proc/*|"$ROOTP"/sys/*) return 1 ;; esac
  case $1 in
    f) B_FILES=$B_FILES$2$TAB$3$NL ;;
    l) B_LINKS=$B_LINKS$2$TAB$3$NL ;;
    m) B_TIMES=$B_TIMES$2$TAB$3$NL ;;
    d) B_DIRS=$B_DIRS$2$TAB$3$NL ;;
  esac
}

# modes PATH...: each file's or folder's permission bits (octal), and as root its owner's uid and
# gid: what tend compares with what it wants (it can set an owner only as root).
modes() {
  if [ "$ME" = 0 ]; then stat -c '%a %u %g' -- "$@"; else stat -c '%a' -- "$@"; fi
}

# r_file IDX PATH, r_link IDX PATH, r_time IDX PATH, r_dir IDX PATH: one read on its own.
r_file() {
  printf '@%s\tfile\t%s\n' "$1" "$(modes "$2" 2>/dev/null)"
  od -An -v -tx1 < "$2" || printf '@%s\terror\tunreadable\n' "$1"
}
r_link() {
  printf '@%s\tsymlink\n' "$1"
  { readlink -- "$2"; } | od -An -v -tx1
}
r_dir() {
  printf '@%s\tdirectory\t%s\n' "$1" "$(modes "$2" 2>/dev/null)"
}
r_time() {
  _t=$(stat -c %Y -- "$2" 2>/dev/null || date -r "$2" +%s 2>/dev/null) && { printf '@%s\tmtime\t%s\n' "$1" "$_t"; return; }
  printf '@%s\tabsent\n' "$1"
}

# i_inspect IDX HOSTPATH: what is there, never following a link there.
i_inspect() {
  resolve "${2%/*}"
  [ -n "${2%/*}" ] || resolve /
  if [ -n "$R_BAD" ]; then printf '@%s\terror\t%s\n' "$1" "$R_BAD"; return; fi
  if [ -n "$R_REST" ]; then printf '@%s\tabsent\n' "$1"; return; fi
  _p=$ROOTP$R_PHYS/${2##*/}
  if [ -L "$_p" ]; then batch l "$1" "$_p" || r_link "$1" "$_p"
  elif [ -d "$_p" ]; then batch d "$1" "$_p" || r_dir "$1" "$_p"
  elif [ -f "$_p" ]; then batch f "$1" "$_p" || r_file "$1" "$_p"
  elif [ -e "$_p" ]; then printf '@%s\tother\n' "$1"
  else printf '@%s\tabsent\n' "$1"
  fi
}

# i_end: the batched reads. Each batch is a record `@b TAB KIND TAB IDX...` then its output:
#   files: od of all the files, then `@b TAB cksum` and cksum's line for each file, then
#   `@b TAB modes` and each file's modes line (see modes);
#   links: od of readlink's lines (a NUL after them when readlink failed);
#   times: stat's lines (`fail` when stat failed);
#   dirs: each folder's modes line (see modes; `fail` when stat failed);
#   rooms: each folder's device, then its file system's block size, free blocks, free inodes and
#   inodes (`fail` when stat failed), always in one batch.
# A batch of one is read on its own.
i_end() {
  each "$B_FILES" files
  each "$B_LINKS" links
  each "$B_TIMES" times
  each "$B_ROOMS" rooms
  each "$B_DIRS" dirs
  B_FILES= B_LINKS= B_TIMES= B_ROOMS= B_DIRS=
}

# each LIST KIND: b_KIND with the paths of a batch list as its arguments (their indexes in _ids).
each() {
  _todo=$1
  _kind=$2
  _ids=
  set --
  while [ -n "$_todo" ]; do
    _e=${_todo%%"$NL"*}
    _todo=${_todo#*"$NL"}
    _ids="${_ids:+$_ids }${_e%%"$TAB"*}"
    set -- "$@" "${_e#*"$TAB"}"
  done
  [ "$#" -eq 0 ] || "b_$_kind" "$@"
}

b_files() {
  if [ "$#" -eq 1 ]; then r_file "$_ids" "$1"; return; fi
  printf '@b\tfiles\t%s\n' "$_ids"
  od -An -v -tx1 -- "$@" 2>/dev/null
  printf '@b\tcksum\n'
  cksum -- "$@" 2>/dev/null
  printf '@b\tmodes\n'
  modes "$@" 2>/dev/null
}

b_links() {
  if [ "$#" -eq 1 ]; then r_link "$_ids" "$1"; return; fi
  printf '@b\tlinks\t%s\n' "$_ids"
  { readlink -- "$@" 2>/dev/null || printf '\000'; } | od -An -v -tx1
}

b_times() {
  if [ "$#" -eq 1 ]; then r_time "$_ids" "$1"; return; fi
  printf '@b\ttimes\t%s\n' "$_ids"
  stat -c %Y -- "$@" 2>/dev/null || printf 'fail\n'
}

b_dirs() {
  if [ "$#" -eq 1 ]; then r_dir "$_ids" "$1"; return; fi
  printf '@b\tdirs\t%s\n' "$_ids"
  modes "$@" 2>/dev/null || printf 'fail\n'
}

b_rooms() {
  printf '@b\trooms\t%s\n' "$_ids"
  { stat -L -c %d -- "$@" && stat -f -c '%S %a %d %c' -- "$@"; } 2>/dev/null || printf 'fail\n'
}

# i_room IDX HOSTDIR: the room on the file system of the folder, or of the nearest one above it
# that exists, as the init sees the path (read at i_end: see there).
i_room() {
  resolve "$2"
  if [ -n "$R_BAD" ]; then printf '@%s\tabsent\n' "$1"; return; fi
  case $ROOTP$R_PHYS in *"$NL"*) printf '@%s\tabsent\n' "$1"; return ;; esac
  B_ROOMS=$B_ROOMS$1$TAB$ROOTP$R_PHYS/$NL
}

# i_exists IDX HOSTPATH: anything there, a dangling link too.
i_exists() {
  resolve "${2%/*}"
  [ -n "${2%/*}" ] || resolve /
  _p=$ROOTP$R_PHYS/${2##*/}
  if [ -z "$R_BAD" ] && [ -z "$R_REST" ] && { [ -e "$_p" ] || [ -L "$_p" ]; }; then printf '@%s\tyes\n' "$1"; else printf '@%s\tno\n' "$1"; fi
}

# i_isdir IDX HOSTPATH: a folder there (a link to one too).
i_isdir() {
  resolve "$2"
  if [ -z "$R_BAD" ] && [ -z "$R_REST" ] && [ -d "$ROOTP$R_PHYS/" ]; then printf '@%s\tyes\n' "$1"; else printf '@%s\tno\n' "$1"; fi
}

# i_list IDX HOSTPATH: the names in a folder, one a line (a name holding a newline is left out).
i_list() {
  resolve "$2"
  if [ -n "$R_BAD" ] || [ -n "$R_REST" ] || [ ! -d "$ROOTP$R_PHYS/" ]; then printf '@%s\tabsent\n' "$1"; return; fi
  printf '@%s\tlist\n' "$1"
  for _e in "$ROOTP$R_PHYS"/* "$ROOTP$R_PHYS"/.[!.]* "$ROOTP$R_PHYS"/..?*; do
    [ -e "$_e" ] || [ -L "$_e" ] || continue
    case $_e in *"$NL"*) continue ;; esac
    printf '=%s\n' "${_e##*/}"
  done
}

# i_mtime IDX HOSTPATH: when it was last modified (seconds since the epoch), never following a link there.
i_mtime() {
  resolve "${2%/*}"
  [ -n "${2%/*}" ] || resolve /
  _p=$ROOTP$R_PHYS/${2##*/}
  if [ -z "$R_BAD" ] && [ -z "$R_REST" ] && { [ -e "$_p" ] || [ -L "$_p" ]; }; then
    batch m "$1" "$_p" || r_time "$1" "$_p"
    return
  fi
  printf '@%s\tabsent\n' "$1"
}
