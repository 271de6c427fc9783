package org.hympj.rsched;

import java.util.Arrays;

/**
 * One RDMA put of a set handed to a {@link Scheduler}: the {@code id}-th element of the input
 * list (ids are 0..n-1 in list order), sent to rank {@code dest} in {@code direction} (0..D-1;
 * on ToFu S3 uses 8: E, W, N, S and the 4 diagonals), {@code bytes} long, over the
 * {@code links} its route crosses. {@code diagonal} says whether the direction is one of those
 * BLbased(k) restricts to the first k engines; it must be the same for every put of one
 * direction.
 *
 * <p>Links are ids (any numbers &gt;= 0) of the links the put occupies while it runs, in route
 * order; the schedulers keep S3's rule — never two puts on one link at once — on every one of
 * them, and the {@link Simulator} shares each of them among the puts pushing into it. Without
 * a route, a put's link is its direction (S3's machine: one link per direction). A route on a
 * torus names the links of other nodes too; for a set every rank runs alike (a translation-
 * symmetric exchange) the link of direction d of any node carries at any instant what the
 * sender's own link d carries, so the sender's own link ids stand for them: a diagonal put on
 * a 2D torus routed x first crosses links E and N (NE). A link listed twice is loaded twice
 * (a route two hops along one axis: the sender's own copy and its neighbour's cross the link).
 */
public record Put(int id, int dest, int direction, long bytes, boolean diagonal, int[] links) {

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
        if (links == null || links.length == 0) {
            throw new IllegalArgumentException("put " + id + ": links must name at least one link, was "
                + (links == null ? "null" : "empty"));
        }
        for (int l : links) {
            if (l < 0) {
                throw new IllegalArgumentException("put " + id + ": link ids must be >= 0, was " + Arrays.toString(links));
            }
        }
        links = links.clone();
    }

    /** A put whose one link is its direction (S3's machine). */
    public Put(int id, int dest, int direction, long bytes, boolean diagonal) {
        this(id, dest, direction, bytes, diagonal, new int[] {direction});
    }

    /** An axis (non-diagonal) put whose one link is its direction. */
    public Put(int id, int dest, int direction, long bytes) {
        this(id, dest, direction, bytes, false);
    }

    /** A put whose diagonal flag is {@code diagonal[direction]} (false beyond the array). */
    public static Put of(int id, int dest, int direction, long bytes, boolean[] diagonal) {
        return new Put(id, dest, direction, bytes, diagonal != null && direction < diagonal.length && diagonal[direction]);
    }

    /** The links the put crosses, in route order (a copy). */
    @Override
    public int[] links() {
        return links.clone();
    }

    /** Whether the put crosses more than its direction's own link. */
    public boolean routed() {
        return links.length != 1 || links[0] != direction;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Put p && p.id == id && p.dest == dest && p.direction == direction && p.bytes == bytes
            && p.diagonal == diagonal && Arrays.equals(p.links, links);
    }

    @Override
    public int hashCode() {
        return ((id * 31 + dest) * 31 + direction) * 31 + Long.hashCode(bytes) + Arrays.hashCode(links);
    }

    @Override
    public String toString() {
        return "Put[id=" + id + ", dest=" + dest + ", direction=" + direction + ", bytes=" + bytes + ", diagonal="
            + diagonal + ", links=" + Arrays.toString(links) + "]";
    }
}
