package org.hympj.router;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;
import org.hympj.spi.Layout;

/**
 * The thresholds table: per layout, the largest message that takes TCA (larger ones take
 * IB), and the size from which a contiguous message is striped over both fabrics. Read from
 * a preset ({@code ha-pacs}) or a file written by calibration ({@code --route-table FILE}).
 * Immutable.
 */
public final class RouteTable {
    /** Every message on TCA (where it reaches). */
    public static final long ALWAYS = Long.MAX_VALUE;

    private final long[] tcaUpTo = new long[Layout.values().length];
    private final long stripeThreshold;
    private final String source;

    public RouteTable(long contiguous, long blockStride, long elementStride, long stripeThreshold, String source) {
        tcaUpTo[Layout.CONTIGUOUS.ordinal()] = contiguous;
        tcaUpTo[Layout.BLOCK_STRIDE.ordinal()] = blockStride;
        tcaUpTo[Layout.ELEMENT_STRIDE.ordinal()] = elementStride;
        this.stripeThreshold = stripeThreshold;
        this.source = source;
    }

    /** A preset name (resource {@code NAME.route} beside this class) or a file path. */
    public static RouteTable load(String nameOrFile) {
        Properties p = new Properties();
        String source;
        try (InputStream in = RouteTable.class.getResourceAsStream(nameOrFile + ".route")) {
            if (in != null) {
                p.load(in);
                source = "preset " + nameOrFile;
            } else {
                Path f = Paths.get(nameOrFile);
                if (!Files.isRegularFile(f)) {
                    throw new IllegalArgumentException("route table " + nameOrFile
                        + ": not a preset (ha-pacs) and not a readable file");
                }
                try (InputStream fin = Files.newInputStream(f)) {
                    p.load(fin);
                }
                source = f.toString();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read route table " + nameOrFile + ": " + e.getMessage(), e);
        }
        return new RouteTable(size(p, "contiguous", source), size(p, "block-stride", source),
            size(p, "element-stride", source), p.containsKey("stripe.threshold") ? size(p, "stripe.threshold", source) : 0,
            source);
    }

    private static long size(Properties p, String key, String source) {
        String v = p.getProperty(key);
        if (v == null) {
            throw new IllegalArgumentException("route table " + source + ": " + key + " is missing");
        }
        v = v.trim();
        if (v.equals("always")) {
            return ALWAYS;
        }
        if (v.equals("never")) {
            return -1;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("route table " + source + ": " + key
                + " must be a size in bytes, 'always' or 'never', was " + v);
        }
    }

    /** The largest message of {@code layout} that takes TCA (-1: none; {@link #ALWAYS}: all). */
    public long tcaUpTo(Layout layout) {
        return tcaUpTo[layout.ordinal()];
    }

    /** Contiguous messages from this size are striped over both fabrics (0: never). */
    public long stripeThreshold() {
        return stripeThreshold;
    }

    /** A copy with another stripe threshold (0 disables striping). */
    public RouteTable withStripeThreshold(long t) {
        return new RouteTable(tcaUpTo[0], tcaUpTo[1], tcaUpTo[2], t, source);
    }

    public String source() {
        return source;
    }

    /** Writes the table in the file format {@link #load} reads. */
    public void store(Path file, String comment) {
        Properties p = new Properties();
        for (Layout l : Layout.values()) {
            long v = tcaUpTo[l.ordinal()];
            p.setProperty(l.key(), v == ALWAYS ? "always" : Long.toString(v));
        }
        p.setProperty("stripe.threshold", Long.toString(stripeThreshold));
        try (OutputStream out = Files.newOutputStream(file)) {
            p.store(out, comment);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The table as text, for {@code mpjrun --show-route-table}. */
    public String describe() {
        StringBuilder b = new StringBuilder("route table (" + source + "): TCA up to, else IB\n");
        for (Layout l : Layout.values()) {
            long v = tcaUpTo[l.ordinal()];
            b.append(String.format("  %-15s %s%n", l.key(),
                v == ALWAYS ? "always" : v < 0 ? "never" : v + " bytes"));
        }
        b.append(String.format("  %-15s %s%n", "striping", stripeThreshold <= 0 ? "off"
            : "contiguous messages from " + stripeThreshold + " bytes, split by bandwidth"));
        return b.toString();
    }
}
