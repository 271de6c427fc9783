package org.hympj.shm.fabric;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import org.hympj.net.ArraySockets;

/**
 * The bulk sockets' writes and reads straight from and into a program's arrays
 * ({@link ArraySockets}), through the native library {@link NativeCopy} loads
 * ({@code src/main/c/hympj_sockets.c}): the array is pinned (JNI's critical access) for one
 * non-blocking system call, and the kernel copies from or into it. Between hosts a 1 MB message
 * from an array to an array then takes the kernel's two copies, as one between segments does,
 * instead of four (docs/PERFORMANCE.md, session 23).
 *
 * <p>{@link #AVAILABLE} where the library is loaded and {@code -Dhympj.native.sockets=off} is not
 * set; the channel's descriptor is read from the JDK's {@code SocketChannelImpl} (a JDK without that
 * field gets -1, and its bytes are staged as before). Offsets are Unsafe-style; the library checks
 * them against the array's length and throws {@link IndexOutOfBoundsException}.
 */
public final class NativeSockets implements ArraySockets {
    /** The system property that turns array socket I/O off ({@code off}): arrays' bytes are staged. */
    public static final String PROPERTY = "hympj.native.sockets";
    /** Whether array socket I/O is there to use. */
    public static final boolean AVAILABLE = NativeCopy.AVAILABLE && !"off".equals(System.getProperty(PROPERTY));
    /** The one there is (stateless). */
    public static final NativeSockets INSTANCE = new NativeSockets();

    private NativeSockets() {
    }

    @Override
    public int descriptor(SocketChannel channel) {
        return descriptor0(channel);
    }

    @Override
    public long write(int fd, long header, int headerLength, Object array, long offset, int length)
        throws IOException {
        return write0(fd, header, headerLength, array, offset - NativeCopy.ARRAY_BASE, length);
    }

    @Override
    public long read(int fd, Object array, long offset, int length) throws IOException {
        return read0(fd, array, offset - NativeCopy.ARRAY_BASE, length);
    }

    private static native int descriptor0(SocketChannel channel);

    /** Bytes written; the offset is from the array's first element. */
    private static native long write0(int fd, long header, int headerLength, Object array, long offset, int length)
        throws IOException;

    /** Bytes read, -1 at the end of the stream; the offset is from the array's first element. */
    private static native long read0(int fd, Object array, long offset, int length) throws IOException;
}
