package org.hympj.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Where a benchmark's message buffers live; the CSV "variant" column. */
public enum BufferKind {
    /** Plain Java arrays on the heap. */
    HEAP,
    /** Buffers from {@code comm.alloc}/{@code comm.allocDoubles}: the rank's registered shared segment. */
    SEGMENT;

    /** The variant label in the CSV rows. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses "heap", "segment", "both" or a comma list like "heap,segment". */
    public static List<BufferKind> parse(String s) {
        List<BufferKind> out = new ArrayList<>();
        for (String part : s.split(",")) {
            String p = part.trim().toLowerCase(Locale.ROOT);
            if (p.equals("both")) {
                add(out, HEAP);
                add(out, SEGMENT);
            } else if (p.equals("heap")) {
                add(out, HEAP);
            } else if (p.equals("segment")) {
                add(out, SEGMENT);
            } else {
                throw new IllegalArgumentException("buffers must be heap, segment or both, got '" + s + "'");
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no buffer kind given");
        }
        return out;
    }

    /** The comma list the rank programs take. */
    public static String format(List<BufferKind> kinds) {
        StringBuilder b = new StringBuilder();
        for (BufferKind k : kinds) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(k.label());
        }
        return b.toString();
    }

    private static void add(List<BufferKind> out, BufferKind k) {
        if (!out.contains(k)) {
            out.add(k);
        }
    }
}
