#!/usr/bin/env bash
# Any build order works: every object that includes libakc's headers waits
# for the headers generated at build time (the enum types).
#
#   test-build-order.sh SOURCE_ROOT
#
# Configures a fresh build tree with -Dintrospection=false (without the GIR,
# nothing else orders the enum types before a consumer) and then
#   1. builds the akc CLI's main object on its own, first thing in the tree,
#      as a parallel ninja may well do (it includes akc.h, which includes the
#      generated akc-enum-types.h and akc-action-enum-types.h);
#   2. removes the generated headers again and builds an object of
#      libakc-gtk (the chat view) on its own;
#   3. asks ninja, for every object compiled against libakc's include
#      directories, whether it depends (directly or order-only) on every
#      generated header (an object of a layer of libakc: on those of its
#      layer and the layers below), without compiling anything.
# Prints TAP.
set -uo pipefail

top=${1:?usage: test-build-order.sh SOURCE_ROOT}
builddir=$(mktemp -d "${TMPDIR:-/tmp}/akc-build-order-XXXXXX")
trap 'rm -rf "$builddir"' EXIT

echo "1..4"

if ! meson setup "$builddir" "$top" -Dintrospection=false -Dtests=false >"$builddir.log" 2>&1; then
  echo "not ok 1 - a fresh build tree configures with -Dintrospection=false"
  sed 's/^/# /' "$builddir.log"
  rm -f "$builddir.log"
  exit 1
fi
rm -f "$builddir.log"
echo "ok 1 - a fresh build tree configures with -Dintrospection=false"

# The generated public headers of libakc, as ninja names them.
mapfile -t generated < <(ninja -C "$builddir" -t targets all |
  grep -oE '^src/libakc/[^:]*-enum-types\.h' | sort -u)
if [ "${#generated[@]}" -lt 1 ]; then
  echo "Bail out! no generated enum-types header among the targets"
  exit 1
fi

build_alone () {
  local n=$1 target=$2 what=$3 out
  if out=$(ninja -C "$builddir" "$target" 2>&1); then
    echo "ok $n - $what builds first in a fresh tree ($target)"
  else
    echo "not ok $n - $what builds first in a fresh tree ($target)"
    printf '%s\n' "$out" | grep -E '^FAILED|error:' | head -n 5 | sed 's/^/# /'
  fi
}

cli_object=$(ninja -C "$builddir" -t targets all | grep -oE '^src/cli/[^:]*akc\.c\.o' | head -n 1)
if [ -z "$cli_object" ]; then
  echo "not ok 2 - the akc CLI's main object is a target"
else
  build_alone 2 "$cli_object" "the akc CLI's main object"
fi

(cd "$builddir" && rm -f "${generated[@]}")
gtk_object=$(ninja -C "$builddir" -t targets all | grep -oE '^src/libakc-gtk/[^:]*view_akc-chat-view\.c\.o' | head -n 1)
if [ -z "$gtk_object" ]; then
  echo "not ok 3 - the chat view of libakc-gtk is a target"
else
  build_alone 3 "$gtk_object" "the chat view of libakc-gtk"
fi

# Every object compiled with libakc's core include directory depends on
# every generated header; an object of one of libakc's layer libraries
# (src/libakc/libakc-LAYER.a) on those of its layer and the layers below
# (the order of libakc_layers in src/libakc/meson.build).
mapfile -t layers < <(sed -n '/^libakc_layers = \[/,/^\]/p' "$top/src/libakc/meson.build" |
  grep -oE "^ *'[a-z]+'" | tr -d " '")
expected_for () {
  local object=$1 layer below=() header
  if [[ $object =~ ^src/libakc/libakc-([a-z]+)\.a\.p/ ]]; then
    for layer in "${layers[@]}"; do
      below+=("$layer")
      [ "$layer" = "${BASH_REMATCH[1]}" ] && break
    done
    for header in "${generated[@]}"; do
      for layer in "${below[@]}"; do
        [[ $header == src/libakc/$layer/* ]] && echo "$header"
      done
    done
  else
    printf '%s\n' "${generated[@]}"
  fi
}
missing=()
count=0
mapfile -t objects < <(ninja -C "$builddir" -t compdb c_COMPILER 2>/dev/null |
  /usr/bin/python3 -c '
import json, sys
for entry in json.load(sys.stdin):
    if "src/libakc/core" in entry["command"]:
        print(entry["output"])
')
for object in "${objects[@]}"; do
  count=$((count + 1))
  deps=$(ninja -C "$builddir" -t query "$object" | sed -n '/^  input:/,/^  outputs:/p')
  while read -r header; do
    if ! grep -qxF -- "    $header" <<<"$deps" && ! grep -qxF -- "    || $header" <<<"$deps" \
       && ! grep -qxF -- "    | $header" <<<"$deps"; then
      missing+=("$object: $header")
    fi
  done < <(expected_for "$object")
done
if [ "${#layers[@]}" -lt 2 ]; then
  echo "not ok 4 - the layers of libakc are read from src/libakc/meson.build"
elif [ "$count" -gt 0 ] && [ "${#missing[@]}" -eq 0 ]; then
  echo "ok 4 - all $count objects built against libakc wait for its generated headers (all ${#generated[@]}, or a layer's own and those below)"
else
  echo "not ok 4 - all $count objects built against libakc wait for its generated headers (all ${#generated[@]}, or a layer's own and those below)"
  printf '# %s\n' "${missing[@]:0:10}"
  echo "# (${#missing[@]} missing dependencies)"
fi
