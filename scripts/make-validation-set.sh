#!/usr/bin/env sh
# A validation set of photographs the public corpus does not use and nothing was tuned on (issue 31, item 1),
# from five pinned Debian packages:
#   - plasma-workspace-wallpapers: the 8 photographic wallpapers the corpus leaves out (it takes ColorfulCups,
#     EveningGlow, Grey, Path and FallenLeaf), at their largest size (4.1-6.4 MP, q90-q95);
#   - mate-backgrounds: the 7 nature photos the corpus leaves out (1.3-4.1 MP; saved at q75, q85, q90, q98, q100);
#   - ukui-wallpapers: its 5 JPEGs, smooth colourful renders at 3640-3840 x 2400, q99 4:4:4 (the kind of source
#     where 4:2:0 cannot reach the goal cheaply);
#   - digikam-data: the one camera photograph it ships (an iPhone 7's 12.2 MP landscape, q96, EXIF and ICC kept);
#   - kstars-data: its splash, a 10.1 MP night sky over mountains (q90 4:4:4; stars are fine detail on black);
# and two re-saved copies, decoded and saved again by libjpeg-turbo at q75 as sites re-save: RainDrops (q100)
# and the 12.2 MP iPhone photo. No Debian package found holds an unused photograph above 12.2 MP (searched:
# gnome-backgrounds, lomiri-wallpapers, sway-backgrounds, xfdesktop4-data, stellarium-data, marble-data,
# kphotoalbum, krita-data, gcompris-qt-data); the spread is 1.3-12.2 MP.
#   sh scripts/make-validation-set.sh [OUTDIR]     (default .validation; outside git)
# Writes OUTDIR/A/V*.jpg and OUTDIR/manifest.tsv in the corpus's format, and checks every file's sha256.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/../.validation}
PACKAGES="plasma-workspace-wallpapers=4:5.27.5-2 mate-backgrounds=1.26.0-1 ukui-wallpapers=20.04.3-1.1
  digikam-data=4:7.9.0-1 kstars-data=5:3.6.2-2"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
command -v cjpeg >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjpeg-turbo-progs; }
rm -rf "$OUT/A"
mkdir -p "$OUT/A"
for p in $PACKAGES; do
  (cd "$WORK" && apt-get download "$p" >/dev/null 2>&1) || { apt-get update -qq && (cd "$WORK" && apt-get download "$p" >/dev/null); }
done
for deb in "$WORK"/*.deb; do dpkg-deb -x "$deb" "$WORK/x"; done
printf 'set\tfile\tbytes\twidth_x_height\tmegapixels\tsource_package\tsource_path\ttransform\tlicense\tsha256\n' > "$OUT/manifest.tsv"
n=0
# $1 package, $2 path in the package, $3 short name, $4 transform
add() {
  n=$((n + 1))
  file=$(printf 'V%02d-%s.jpg' "$n" "$3")
  if [ "$4" = copy ]; then
    cp "$WORK/x$2" "$OUT/A/$file"
    how="copy (genuine)"
  else
    djpeg "$WORK/x$2" | cjpeg -quality 75 > "$OUT/A/$file"
    how="djpeg | cjpeg -quality 75 (re-saved)"
  fi
  size=$(rdjpgcom -verbose "$OUT/A/$file" | sed -n 's/^JPEG image is \([0-9]*\)w \* \([0-9]*\)h.*/\1x\2/p')
  w=${size%x*}; h=${size#*x}
  printf 'A\t%s\t%s\t%s\t%s\t%s\t%s\t%s\tsee the package copyright\t%s\n' "$file" "$(wc -c < "$OUT/A/$file" | tr -d ' ')" \
    "$size" "$(awk "BEGIN{printf \"%.2f\", $w*$h/1e6}")" "$1" "$2" "$how" "$(sha256sum "$OUT/A/$file" | cut -d' ' -f1)" \
    >> "$OUT/manifest.tsv"
}
P=/usr/share/wallpapers
for s in Autumn:2560x1600 BytheWater:2560x1600 ColdRipple:2560x1600 DarkestHour:2560x1600 Kite:2560x1600 \
  OneStandsOut:2560x1600 PastelHills:3200x2000 summer_1am:2560x1600; do
  add plasma-workspace-wallpapers "$P/${s%%:*}/contents/images/${s#*:}.jpg" "plasma-${s%%:*}" copy
done
M=/usr/share/backgrounds/mate/nature
for s in Blinds FreshFlower Garden GreenMeadow RainDrops TwoWings YellowFlower; do
  add mate-backgrounds "$M/$s.jpg" "mate-$s" copy
done
U=/usr/share/backgrounds
for s in 2004default firstgeneration rhythm string the-mouse; do add ukui-wallpapers "$U/$s.jpg" "ukui-$s" copy; done
add mate-backgrounds "$M/RainDrops.jpg" "mate-RainDrops-resaved-q75" resave
# Added after the first 21 (27 Nov 2026): photos of 10 MP and more, a camera's own file, a night scene.
D=/usr/share/digikam/about/images/body-background.jpg
add digikam-data "$D" "digikam-iPhone7-lake" copy
add kstars-data "/usr/share/kstars/kstarslite/qml/images/splash_bg@4x.jpeg" "kstars-night-sky" copy
add digikam-data "$D" "digikam-iPhone7-lake-resaved-q75" resave
(cd "$OUT/A" && sha256sum -c --quiet "$HERE/validation-set.sha256")
echo "validation set written to $OUT: $n files"
