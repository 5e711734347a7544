# shellcheck shell=bash
# copy_checkout ROOT DEST: the working tree of ROOT as a clone would hold it
# (uncommitted changes included, so a developer tests what they are about to
# commit), written to DEST. Source this file; it defines the function only.
copy_checkout() {
  local root=$1 dest=$2
  mkdir -p "$dest"
  git -C "$root" ls-files -z --cached --others --exclude-standard |
    (cd "$root" && tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | (cd "$dest" && tar -xf -)
}
