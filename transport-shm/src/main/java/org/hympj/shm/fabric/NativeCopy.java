package org.hympj.shm.fabric;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies into shared memory with the CPU's string move ({@code rep movsb}), through a small JNI
 * library built from {@code src/main/c/hympj_copy.c} into the jar.
 *
 * <p>Why: a sender's plain stores into a line the receiver's core last read must first take the
 * line back from that core's cache. When the machine's two cores sit in different core complexes
 * (this machine's "far" mode, docs/PERFORMANCE.md) every such line is a round trip between them and
 * only a few dozen are in flight: HotSpot's copy stub wrote 1 MiB into the bulk region in
 * 115–165 µs against about 20 µs near. The string move writes whole lines without reading them
 * first — 26–32 µs far apart, 17–19 near — and Java 17 can emit neither it nor non-temporal stores.
 *
 * <p>Only copies of at least {@link #FROM} bytes whose destination is off-heap take it: at 4 KiB the
 * JNI call and the string move's start cost a ping-pong 70 ns near for the 100–150 ns they win far
 * apart; from 8 KiB they win in both (docs/PERFORMANCE.md, session 22). Where the library is missing (no C compiler at build time,
 * another OS or CPU) or {@code -Dhympj.native=off} is set, {@link #AVAILABLE} is false and the
 * callers copy in Java: the same bytes, slower when the cores are far apart. The library is
 * extracted to a temporary file, loaded, and the file deleted at once.
 */
public final class NativeCopy {
    private static final Logger LOG = LoggerFactory.getLogger(NativeCopy.class);

    /** The system property that turns the native copy off ({@code off}). */
    public static final String PROPERTY = "hympj.native";
    /** The system property for {@link #FROM}, in bytes. */
    public static final String FROM_PROPERTY = "hympj.native.copyFrom";
    /** Copies of at least this many bytes into off-heap memory go native. */
    public static final long FROM = Long.getLong(FROM_PROPERTY, 8192);
    /** Offset of every primitive array's first element (checked alike for all of them before loading). */
    static final long ARRAY_BASE = UnsafeApi.arrayBaseOffset(byte[].class);
    /** Whether the library is loaded and copies go native. */
    public static final boolean AVAILABLE = load();

    private NativeCopy() {
    }

    /**
     * {@code len} bytes of a primitive array, from {@code offset} bytes after its first element, to
     * the off-heap address {@code dst}. The array is pinned for the copy (JNI's critical access).
     */
    static native void fromArray(Object array, long offset, long dst, long len);

    /** {@code len} bytes from the off-heap address {@code src} to the off-heap address {@code dst}. */
    static native void between(long src, long dst, long len);

    /**
     * Copies as {@link Packer#copy} does, the destination off-heap ({@code dstBase == null}): from an
     * array ({@code srcBase} with its Unsafe offset) or from off-heap memory.
     */
    static void toOffHeap(Object srcBase, long src, long dst, long len) {
        if (srcBase == null) {
            between(src, dst, len);
        } else {
            fromArray(srcBase, src - ARRAY_BASE, dst, len);
        }
    }

    private static boolean load() {
        if ("off".equals(System.getProperty(PROPERTY))) {
            LOG.debug("native copy off ({}=off)", PROPERTY);
            return false;
        }
        String resource = resource();
        if (resource == null || !uniformArrayBase()) {
            LOG.debug("no native copy for {} {}", System.getProperty("os.name"), System.getProperty("os.arch"));
            return false;
        }
        try (InputStream in = NativeCopy.class.getResourceAsStream(resource)) {
            if (in == null) {
                LOG.debug("native copy not built into the jar ({}): copying in Java", resource);
                return false;
            }
            Path file = Files.createTempFile("hympj-copy-", ".so"); // owner-only, a name of its own
            try {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                System.load(file.toString());
            } finally {
                Files.deleteIfExists(file); // the loaded library stays mapped
            }
            return selfTest();
        } catch (IOException | UnsatisfiedLinkError | SecurityException e) {
            LOG.warn("native copy could not be loaded ({}): copying in Java", e.toString());
            return false;
        }
    }

    /** The class-path resource of this OS and CPU's library, or null where none is built. */
    static String resource() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.startsWith("linux") || !(arch.equals("amd64") || arch.equals("aarch64"))) {
            return null;
        }
        return "native/linux-" + arch + "/libhympjcopy.so";
    }

    private static boolean uniformArrayBase() {
        for (Class<?> c : new Class<?>[] {short[].class, char[].class, int[].class, long[].class, float[].class,
            double[].class, boolean[].class}) {
            if (UnsafeApi.arrayBaseOffset(c) != ARRAY_BASE) {
                return false;
            }
        }
        return true;
    }

    /** Copies a few odd-sized, odd-placed runs both ways and checks every byte. */
    private static boolean selfTest() {
        byte[] from = new byte[257];
        for (int i = 0; i < from.length; i++) {
            from[i] = (byte) (i * 7 + 3);
        }
        ByteBuffer a = ByteBuffer.allocateDirect(512);
        ByteBuffer b = ByteBuffer.allocateDirect(512);
        long addrA = BufferUtil.address(a);
        long addrB = BufferUtil.address(b);
        fromArray(from, 3, addrA + 5, 251);
        between(addrA + 5, addrB + 1, 251);
        for (int i = 0; i < 251; i++) {
            if (UnsafeApi.getByte(addrB + 1 + i) != from[3 + i]) {
                LOG.warn("native copy failed its self-test at byte {}: copying in Java", i);
                return false;
            }
        }
        return true;
    }
}
