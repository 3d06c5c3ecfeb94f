# Which Tableside version runs on this table, for the launcher `tableside` and for
# `tableside-units` (sourced; kiosk/update/ installs the versions and switches them):
# the version the link /data/tableside/current names, if every folder on the way is root's
# alone and its venv is there; otherwise the SD image's own, /opt/tableside (read-only root).
# The data partition belongs to the kiosk user: a folder it could swap must never choose
# what runs as root (provisioning, updates).
releases=${TABLESIDE_RELEASES:-/data/tableside}
factory=${TABLESIDE_FACTORY:-/opt/tableside}
owner=${TABLESIDE_OWNER:-0}  # root; the tests run it as themselves

root_alone() {  # a real folder, owned by $owner, written by no one else
  [ -d "$1" ] && [ ! -L "$1" ] || return 1
  set -- $(stat -c '%u %a' "$1")
  [ "$1" = "$owner" ] && [ $(( 0$2 & 022 )) = 0 ]
}

release_in_use() {
  if [ -L "$releases/current" ] && root_alone "$releases" && root_alone "$releases/releases"
  then
    target=$(readlink -f "$releases/current")
    if [ "$(dirname "$target")" = "$(readlink -f "$releases/releases")" ] &&
       root_alone "$target" && [ -x "$target/venv/bin/tableside" ]; then
      echo "$target"
      return
    fi
  fi
  echo "$factory"
}
