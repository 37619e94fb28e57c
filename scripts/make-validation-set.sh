#!/usr/bin/env sh
# A validation set of photographs the public corpus does not use and nothing was tuned on (issue 31, item 1):
# the 8 photographic wallpapers of Debian's plasma-workspace-wallpapers (pinned) that the corpus leaves out
# (it takes ColorfulCups, EveningGlow, Grey, Path and FallenLeaf from the same package), at their largest size.
#   sh scripts/make-validation-set.sh [OUTDIR]     (default .validation; outside git)
# Writes OUTDIR/A/V*.jpg and OUTDIR/manifest.tsv in the corpus's format, and checks every file's sha256.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/../.validation}
PACKAGE=plasma-workspace-wallpapers=4:5.27.5-2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT/A"
(cd "$WORK" && apt-get download "$PACKAGE" >/dev/null 2>&1) || { apt-get update -qq && (cd "$WORK" && apt-get download "$PACKAGE" >/dev/null); }
dpkg-deb -x "$WORK"/*.deb "$WORK/x"
printf 'set\tfile\tbytes\twidth_x_height\tmegapixels\tsource_package\tsource_path\ttransform\tlicense\tsha256\n' > "$OUT/manifest.tsv"
n=0
while read -r name size; do
  n=$((n + 1))
  src="/usr/share/wallpapers/$name/contents/images/$size.jpg"
  file=$(printf 'V%02d-plasma-%s.jpg' "$n" "$name")
  cp "$WORK/x$src" "$OUT/A/$file"
  w=${size%x*}; h=${size#*x}
  printf 'A\t%s\t%s\t%s\t%s\t%s\t%s\tcopy (genuine)\tsee the package copyright\t%s\n' "$file" "$(wc -c < "$OUT/A/$file" | tr -d ' ')" \
    "$size" "$(awk "BEGIN{printf \"%.2f\", $w*$h/1e6}")" "$PACKAGE" "$src" "$(sha256sum "$OUT/A/$file" | cut -d' ' -f1)" \
    >> "$OUT/manifest.tsv"
done <<LIST
Autumn 2560x1600
BytheWater 2560x1600
ColdRipple 2560x1600
DarkestHour 2560x1600
Kite 2560x1600
OneStandsOut 2560x1600
PastelHills 3200x2000
summer_1am 2560x1600
LIST
(cd "$OUT/A" && sha256sum -c --quiet "$HERE/validation-set.sha256")
echo "validation set written to $OUT: $n files"
