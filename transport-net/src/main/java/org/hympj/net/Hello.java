package org.hympj.net;

import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The first frame of every connection between two ranks: who sends (source and destination
 * rank, the Aeron session it opens, the library version) and an HMAC-SHA256 of all of it under
 * the job's key. The receiver admits the connection's image only when the MAC verifies, the
 * ranks are the ones it expects and the session is the image's own (a HELLO copied into another
 * session does not verify).
 *
 * <pre>
 * 0 magic:int  4 wire:int  8 src:int  12 dst:int  16 session:int  20 versionLength:int
 * 24 version (UTF-8)  then mac (32 bytes) over everything before it
 * </pre>
 */
final class Hello {
    /** Frame kinds of the network layer itself (reserved value of the frame), apart from the packets it carries. */
    static final long TYPE_HELLO = -0x48454c4cL;
    /** The last frame of a connection: the sender finalized, nothing follows. */
    static final long TYPE_BYE = -0x425945L;
    /**
     * A rank of the sender's host failed (the sender saw it die, or heard of it): {@code magic:int,
     * failedRank:int, code:int}. Without a launcher (srun, mpirun) it is how the other hosts learn
     * of it at once, not when the connection falls silent.
     */
    static final long TYPE_FAILED = -0x4641494cL;
    /**
     * The sender's bulk socket takes the receiver's large packets from now on: {@code magic:int,
     * port:int} ({@link NetBulk}). A BYE is {@code magic:int, packetsOnBulk:int}: 1 when packets
     * also went on the bulk connection, whose end the reader then waits for.
     */
    static final long TYPE_PORT = -0x504f5254L;

    static final int MAGIC = 0x48594e54; // "HYNT"
    /** Version of this layout and of the frame kinds. */
    static final int WIRE = 2;
    private static final int HEADER = 24;
    private static final int MAC = 32;
    private static final int MAX_VERSION = 64;

    private Hello() {
    }

    /** Writes a HELLO at {@code offset}; returns its length. */
    static int write(MutableDirectBuffer b, int offset, JobKey key, int src, int dst, int session, String version) {
        byte[] body = body(src, dst, session, version);
        b.putBytes(offset, body);
        b.putBytes(offset + body.length, key.mac(body));
        return body.length + MAC;
    }

    /** Length of the HELLO of {@code version}. */
    static int length(String version) {
        return HEADER + version.getBytes(StandardCharsets.UTF_8).length + MAC;
    }

    private static byte[] body(int src, int dst, int session, String version) {
        byte[] v = version.getBytes(StandardCharsets.UTF_8);
        if (v.length > MAX_VERSION) {
            throw new IllegalArgumentException("library version string longer than " + MAX_VERSION + " bytes");
        }
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.allocate(HEADER + v.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        bb.putInt(MAGIC).putInt(WIRE).putInt(src).putInt(dst).putInt(session).putInt(v.length).put(v);
        return bb.array();
    }

    /** What a received HELLO says, once checked. */
    static final class Verdict {
        /** The source rank; -1 when refused. */
        final int source;
        /** Why it was refused ("" when admitted). */
        final String reason;
        /** The sender's library version (null when unreadable). */
        final String version;

        Verdict(int source, String reason, String version) {
            this.source = source;
            this.reason = reason;
            this.version = version;
        }
    }

    /**
     * Checks a HELLO received on an image of {@code session} at rank {@code me}.
     *
     * @param expectedSource true for the ranks that may connect to this rank over the network
     */
    static Verdict check(DirectBuffer b, int offset, int length, JobKey key, int me, int session,
                         java.util.function.IntPredicate expectedSource) {
        if (length < HEADER + MAC || b.getInt(offset, java.nio.ByteOrder.LITTLE_ENDIAN) != MAGIC) {
            return new Verdict(-1, "not a HyMPJ connection (no HELLO)", null);
        }
        int wire = b.getInt(offset + 4, java.nio.ByteOrder.LITTLE_ENDIAN);
        int src = b.getInt(offset + 8, java.nio.ByteOrder.LITTLE_ENDIAN);
        int dst = b.getInt(offset + 12, java.nio.ByteOrder.LITTLE_ENDIAN);
        int ses = b.getInt(offset + 16, java.nio.ByteOrder.LITTLE_ENDIAN);
        int vlen = b.getInt(offset + 20, java.nio.ByteOrder.LITTLE_ENDIAN);
        if (vlen < 0 || vlen > MAX_VERSION || HEADER + vlen + MAC != length) {
            return new Verdict(-1, "malformed HELLO", null);
        }
        byte[] body = new byte[HEADER + vlen];
        b.getBytes(offset, body);
        byte[] mac = new byte[MAC];
        b.getBytes(offset + HEADER + vlen, mac);
        if (!key.verify(body, mac)) {
            return new Verdict(-1, "wrong job key (its HELLO does not verify)", null);
        }
        String version = new String(body, HEADER, vlen, StandardCharsets.UTF_8);
        if (wire != WIRE) {
            return new Verdict(-1, "wire protocol " + wire + ", this rank speaks " + WIRE, version);
        }
        if (dst != me || ses != session || !expectedSource.test(src)) {
            return new Verdict(-1, "HELLO of rank " + src + " to rank " + dst + " (session " + ses
                + ") arrived at rank " + me + " on session " + session, version);
        }
        return new Verdict(src, "", version);
    }
}
