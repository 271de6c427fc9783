package org.hympj.net;

import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * Socket writes and reads straight from and into a Java array, so that a large message between
 * hosts from or into a program's array is copied by the kernel alone, as one from or into the
 * shared segment is. Without it {@link NetBulk} stages an array's bytes in a direct buffer on each
 * side: two copies more (the JDK would make the same copy itself for a heap buffer). Given to the
 * bulk path by {@link NetBulk#arraysVia}; transport-shm's {@code NativeSockets} is the one there is
 * (a JNI library; where it is not built the bulk path stages).
 *
 * <p>Arrays are primitive arrays; offsets are Unsafe-style, from the array object's start (as the
 * PML names memory). Every call returns at once (non-blocking sockets).
 */
public interface ArraySockets {
    /** The channel's file descriptor, or -1 where this cannot have it (the channel is then used as it is). */
    int descriptor(SocketChannel channel);

    /**
     * Writes {@code headerLength} bytes at the native address {@code header}, then {@code length}
     * bytes of {@code array} from {@code offset}, in one call.
     *
     * @return the bytes the socket took, header first (0: it takes none now)
     * @throws IOException as the write failed (a closed or reset connection)
     */
    long write(int fd, long header, int headerLength, Object array, long offset, int length) throws IOException;

    /**
     * Reads at most {@code length} bytes into {@code array} from {@code offset}.
     *
     * @return the bytes read, 0 when none is there now, -1 at the end of the stream
     * @throws IOException as the read failed
     */
    long read(int fd, Object array, long offset, int length) throws IOException;
}
