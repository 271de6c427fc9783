package org.hympj.rsched;

/**
 * One RDMA put of a set handed to a {@link Scheduler}: the {@code id}-th element of the input
 * list (ids are 0..n-1 in list order), sent to rank {@code dest} over the link that leaves the
 * sender in {@code direction} (0..D-1; on ToFu S3 uses 8: E, W, N, S and the 4 diagonals),
 * {@code bytes} long. {@code diagonal} says whether the direction is one of those BLbased(k)
 * restricts to the first k engines; it must be the same for every put of one direction.
 */
public record Put(int id, int dest, int direction, long bytes, boolean diagonal) {

    public Put {
        if (id < 0) {
            throw new IllegalArgumentException("put id must be >= 0, was " + id);
        }
        if (dest < 0) {
            throw new IllegalArgumentException("put " + id + ": dest must be >= 0, was " + dest);
        }
        if (direction < 0) {
            throw new IllegalArgumentException("put " + id + ": direction must be >= 0, was " + direction);
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("put " + id + ": bytes must be >= 0, was " + bytes);
        }
    }

    /** An axis (non-diagonal) put. */
    public Put(int id, int dest, int direction, long bytes) {
        this(id, dest, direction, bytes, false);
    }

    /** A put whose diagonal flag is {@code diagonal[direction]} (false beyond the array). */
    public static Put of(int id, int dest, int direction, long bytes, boolean[] diagonal) {
        return new Put(id, dest, direction, bytes, diagonal != null && direction < diagonal.length && diagonal[direction]);
    }
}
