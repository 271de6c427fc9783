package org.hympj.net;

import java.nio.ByteBuffer;

/**
 * The handshake that opens a bulk connection ({@link NetBulk}), the same on both sides: the
 * listener ({@link BulkIn}) writes a random challenge of {@link #CHALLENGE} bytes, the connecting
 * rank ({@link BulkOut}) answers with a hello of {@link #HELLO} bytes, big-endian:
 *
 * <pre>
 * 0 magic:int  4 src:int  8 dst:int  12 mac (32 bytes): the job key's HMAC of {@link #helloData}
 * </pre>
 */
final class BulkHello {
    static final int MAGIC = 0x4842554c; // "HBUL"
    static final int CHALLENGE = 16;
    static final int HELLO = 12 + 32;

    private BulkHello() {
    }

    /** What a hello's MAC is taken of: the magic, both ranks and the listener's challenge. */
    static byte[] helloData(int src, int dst, byte[] challenge) {
        ByteBuffer b = ByteBuffer.allocate(12 + CHALLENGE);
        b.putInt(MAGIC).putInt(src).putInt(dst).put(challenge);
        return b.array();
    }
}
