package org.hympj.shm.pml;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.SegmentBuffer;

/**
 * Argument checks shared by every call: each failure is an {@link IllegalArgumentException}
 * that names the argument and what was expected, thrown before anything is changed.
 */
final class Args {
    private Args() {
    }

    static void buffer(String op, Object buf, int offset, int count, Datatype type, Object segmentOwner) {
        if (type == null) {
            throw new IllegalArgumentException(op + ": type must not be null");
        }
        if (buf == null) {
            throw new IllegalArgumentException(op + ": buf must not be null");
        }
        if (count < 0) {
            throw new IllegalArgumentException(op + ": count must be >= 0, was " + count);
        }
        if (offset < 0) {
            throw new IllegalArgumentException(op + ": offset must be >= 0, was " + offset);
        }
        long length;
        if (buf instanceof SegmentBuffer) {
            SegmentBuffer sb = (SegmentBuffer) buf;
            if (sb.primitive() != type.primitive()) {
                throw new IllegalArgumentException(op + ": buf is a " + sb.primitive() + " segment buffer but type "
                    + type + " needs " + type.primitive() + " elements");
            }
            if (sb.owner() != segmentOwner) {
                throw new IllegalArgumentException(op + ": buf is a segment buffer of another rank or job");
            }
            length = sb.length();
        } else {
            Class<?> c = buf.getClass();
            if (c != type.primitive().arrayClass()) {
                throw new IllegalArgumentException(op + ": buf is " + c.getSimpleName() + " but type " + type
                    + " needs " + type.primitive().arrayClass().getSimpleName());
            }
            length = PrimitiveArrays.length(buf);
        }
        long span = type.span(count);
        if (offset + span > length) {
            throw new IllegalArgumentException(op + ": offset " + offset + " + " + count + " items of " + type
                + " span " + span + " elements, past the end of buf (length " + length + ")");
        }
    }

    static void dest(String op, int dest, int size) {
        if (dest != Comm.PROC_NULL && (dest < 0 || dest >= size)) {
            throw new IllegalArgumentException(op + ": dest must be 0.." + (size - 1) + " or PROC_NULL, was " + dest);
        }
    }

    static void source(String op, int source, int size) {
        if (source != Comm.PROC_NULL && source != Comm.ANY_SOURCE && (source < 0 || source >= size)) {
            throw new IllegalArgumentException(op + ": source must be 0.." + (size - 1)
                + ", ANY_SOURCE or PROC_NULL, was " + source);
        }
    }

    static void sendTag(String op, int tag) {
        if (tag < 0) {
            throw new IllegalArgumentException(op + ": tag must be 0.." + Comm.TAG_UB + ", was " + tag);
        }
    }

    static void recvTag(String op, int tag) {
        if (tag < 0 && tag != Comm.ANY_TAG) {
            throw new IllegalArgumentException(op + ": tag must be 0.." + Comm.TAG_UB + " or ANY_TAG, was " + tag);
        }
    }
}
