#!/usr/bin/env bash
# Sets up Mesa's Intel Vulkan driver (anv) on a stubbed GPU, for the parity harness
# (`cargo bench -p suites --bench mesa_parity`, see README.md "Parity with Mesa and IGC").
#
# Debian bookworm's `mesa-vulkan-drivers` (Mesa 22.3.6) holds anv itself. What it lacks is
# a GPU: Mesa's `intel_noop_drm_shim` (src/intel/tools/intel_noop_drm.c over
# src/drm-shim/) answers the kernel driver's ioctls for a platform named by
# INTEL_STUB_GPU_PLATFORM (skl, icl, tgl, dg2, ...). It is not packaged, so this script
# builds only that library from Debian's own `mesa` source package, into a cache
# directory outside the repository (no Mesa code is ever committed):
#
#   ANV_STUB_DIR      where to build (default: ${XDG_CACHE_HOME:-~/.cache}/anv-stub)
#
# It prints the shim's path last; the harness finds it at
# $ANV_STUB_DIR/mesa-22.3.6/build/src/intel/tools/libintel_noop_drm_shim.so (or through
# ANV_STUB_SHIM). Needs root for apt-get (it runs as root in this project's machines).
# Idempotent: a second run only checks. About a minute of build on 2 cores.
set -euo pipefail

dir="${ANV_STUB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/anv-stub}"
version=22.3.6
shim="$dir/mesa-$version/build/src/intel/tools/libintel_noop_drm_shim.so"

if [ -f "$shim" ] && [ -f /usr/share/vulkan/icd.d/intel_icd.x86_64.json ]; then
    echo "$shim"
    exit 0
fi

# Source packages: the image lists binary packages only. Add deb-src to the Debian
# sources (deb822 format) once.
sources=/etc/apt/sources.list.d/debian.sources
if [ -f "$sources" ] && ! grep -q '^Types: deb deb-src' "$sources"; then
    sed -i '0,/^Types: deb$/s//Types: deb deb-src/' "$sources"
fi
apt-get update
# Build tools for the shim, anv itself (mesa-vulkan-drivers) and the Vulkan loader.
apt-get install -y meson ninja-build python3-mako libdrm-dev bison flex libexpat1-dev \
    zlib1g-dev pkg-config libzstd-dev dpkg-dev mesa-vulkan-drivers libvulkan1

installed=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers)
case "$installed" in
    "$version"*) ;;
    *) echo "setup.sh: warning: mesa-vulkan-drivers is $installed; the shim is built from $version" >&2 ;;
esac

mkdir -p "$dir"
cd "$dir"
if [ ! -d "mesa-$version" ]; then
    apt-get source --download-only "mesa=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers)" \
        || apt-get source --download-only mesa
    tar xzf "mesa_$version.orig.tar.gz"
fi
cd "mesa-$version"
# /usr/bin first, so that meson's Python is the one with Debian's mako.
if [ ! -f build/build.ninja ]; then
    PATH=/usr/bin:$PATH meson setup build -Dgallium-drivers= -Dvulkan-drivers= \
        -Dplatforms= -Dglx=disabled -Degl=disabled -Dgbm=disabled -Dllvm=disabled \
        -Dtools=drm-shim,intel -Dopengl=false -Dgles1=disabled -Dgles2=disabled \
        -Dshared-glapi=disabled -Dbuildtype=release -Dvalgrind=disabled -Dlibunwind=disabled
fi
PATH=/usr/bin:$PATH ninja -C build src/intel/tools/libintel_noop_drm_shim.so
test -f "$shim"
echo "$shim"
