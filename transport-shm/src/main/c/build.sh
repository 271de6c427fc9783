#!/bin/sh
# Builds HyMPJ's native copy and socket I/O (hympj_copy.c, hympj_sockets.c) into OUT_DIR/native/linux-ARCH/libhympjcopy.so, where
# NativeCopy looks for it on the class path. Without a C compiler or the JDK's JNI headers it builds
# nothing and says so: the library then copies in Java (correct, slower when the cores are far apart).
# usage: build.sh JAVA_HOME OUT_DIR
java_home=$1
out=$2
here=$(dirname "$0")
cc=${CC:-cc}
case $(uname -m) in
  x86_64|amd64) arch=amd64 ;;
  aarch64|arm64) arch=aarch64 ;;
  *) echo "hympj native copy: no build for $(uname -m); copying in Java" >&2; exit 0 ;;
esac
if [ "$(uname -s)" != Linux ]; then
  echo "hympj native copy: no build for $(uname -s); copying in Java" >&2
  exit 0
fi
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "hympj native copy: no C compiler ($cc); copying in Java" >&2
  exit 0
fi
if [ ! -f "$java_home/include/jni.h" ]; then
  echo "hympj native copy: no JNI headers under $java_home/include; copying in Java" >&2
  exit 0
fi
mkdir -p "$out/native/linux-$arch"
if ! "$cc" -O2 -shared -fPIC -Wall -Wextra -Werror -I"$java_home/include" -I"$java_home/include/linux" \
    -o "$out/native/linux-$arch/libhympjcopy.so" "$here/hympj_copy.c" "$here/hympj_sockets.c"; then
  rm -f "$out/native/linux-$arch/libhympjcopy.so"
  echo "hympj native copy: $cc failed; copying in Java (NativeCopyTest fails where a compiler exists)" >&2
fi
