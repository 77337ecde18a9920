#!/usr/bin/env bash
# OpenJDK 8 on a machine whose own archive no longer has it (docs/flags.md, "JDK 8"): Debian sid still
# builds openjdk-8-jdk-headless, which needs a newer C library than the host's, so it lives in a minimal sid
# chroot and runs through a `java` wrapper that enters the chroot in the caller's working directory. The
# host's /work, /tmp, /dev and /proc are bind-mounted into it, so paths given to the JVM mean the same
# inside. As root; a few minutes. Usage: tools/jdk8-chroot.sh [ROOT=/opt/jdk8root] [HOME=/opt/jdk8]
set -euo pipefail
ROOT=${1:-/opt/jdk8root}
HOME8=${2:-/opt/jdk8}
JVM=/usr/lib/jvm/java-8-openjdk-amd64
[ "$(id -u)" = 0 ] || { echo "error: run as root (debootstrap, chroot, mount)" >&2; exit 2; }
command -v debootstrap >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; }
if [ ! -x "$ROOT$JVM/bin/java" ]; then
    [ -x "$ROOT/bin/sh" ] || debootstrap --variant=minbase sid "$ROOT" http://deb.debian.org/debian
    mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"   # the JRE's post-install runs java
    # a mirror's snapshot of sid may carry a Release file past its Valid-Until date
    chroot "$ROOT" apt-get -o Acquire::Check-Valid-Until=false update -qq
    chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-8-jdk-headless
fi
for dir in /work /tmp /dev; do
    mkdir -p "$ROOT$dir"
    mountpoint -q "$ROOT$dir" || mount --bind "$dir" "$ROOT$dir"
done
mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
# A JDK home of wrappers: each tool enters the chroot in the caller's directory; `release` names it.
mkdir -p "$HOME8/bin"
cp "$ROOT$JVM/release" "$HOME8/release" 2>/dev/null || cp "$ROOT$JVM/jre/release" "$HOME8/release" 2>/dev/null || true
for tool in java javac jcmd jps jstat jfr jar; do
    [ -x "$ROOT$JVM/bin/$tool" ] || continue
    cat > "$HOME8/bin/$tool" <<WRAP
#!/bin/sh
exec chroot "$ROOT" /bin/sh -c 'cd "\$0" 2>/dev/null || cd /; exec "\$@"' "\$PWD" "$JVM/bin/$tool" "\$@"
WRAP
    chmod +x "$HOME8/bin/$tool"
done
"$HOME8/bin/java" -version
