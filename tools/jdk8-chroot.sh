#!/usr/bin/env bash
# OpenJDK 8 on a machine whose own archive no longer has it (docs/flags.md, "JDK 8"): Debian sid still
# builds openjdk-8-jdk-headless, which needs a newer C library than the host's, so it lives in a minimal sid
# chroot and runs through a `java` wrapper that enters the chroot in the caller's working directory. Each
# call enters a mount namespace of its own in which the host's own top-level folders (/work, /tmp, /home, a
# checkout anywhere) and /dev and /proc are bound into the chroot, so every path given to the JVM means the
# same inside, wherever the caller's files live. As root; a few minutes.
# Usage: tools/jdk8-chroot.sh [ROOT=/opt/jdk8root] [HOME=/opt/jdk8]
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
# A JDK home of wrappers; `release` names it. The system's folders stay the chroot's own; /opt is left out
# because the chroot itself lives there.
mkdir -p "$HOME8/bin"
cp "$ROOT$JVM/release" "$HOME8/release" 2>/dev/null || cp "$ROOT$JVM/jre/release" "$HOME8/release" 2>/dev/null || true
cat > "$HOME8/enter" <<'ENTER'
#!/bin/sh
# enter ROOT TOOL ARGS...: runs TOOL inside ROOT in the caller's directory, with the host's folders bound in.
root=$1; shift
for dir in /*; do
    case $dir in
        /bin|/boot|/etc|/lib|/lib32|/lib64|/libx32|/media|/opt|/run|/sbin|/srv|/sys|/usr|/var) continue ;;
    esac
    [ -d "$dir" ] && [ ! -L "$dir" ] || continue
    mkdir -p "$root$dir" && mount --rbind "$dir" "$root$dir" || exit 125
done
exec chroot "$root" /bin/sh -c 'cd "$0" 2>/dev/null || cd /; exec "$@"' "$PWD" "$@"
ENTER
chmod +x "$HOME8/enter"
for tool in java javac jcmd jps jstat jfr jar; do
    [ -x "$ROOT$JVM/bin/$tool" ] || continue
    cat > "$HOME8/bin/$tool" <<WRAP
#!/bin/sh
exec unshare --mount --propagation private "$HOME8/enter" "$ROOT" "$JVM/bin/$tool" "\$@"
WRAP
    chmod +x "$HOME8/bin/$tool"
done
"$HOME8/bin/java" -version
