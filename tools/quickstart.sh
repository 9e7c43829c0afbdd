#!/bin/sh
# Installs what remat-plan needs on Debian 12, builds it and plans a shipped
# graph. Run from the top of the source tree: sh tools/quickstart.sh
set -eu
cd "$(dirname "$0")/.."
pkgs="build-essential autoconf automake pkg-config libxml2-dev libigraph-dev libglpk-dev glpk-utils coinor-libcbc-dev python3 python3-torch python3-torchvision libxml2-utils librsvg2-bin"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
	    missing="$missing $p"
done
if [ -n "$missing" ]; then
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "installing:$missing"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends $missing >/dev/null
fi
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc)"
echo
echo "$ ./remat-plan --graph graphs/unet.xml --budget 16G --time-limit 10 -o unet-plan.xml"
./remat-plan --graph graphs/unet.xml --budget 16G --time-limit 10 -o unet-plan.xml
echo
echo 'plan written to unet-plan.xml; run the tests with: make -j"$(nproc)" check'
