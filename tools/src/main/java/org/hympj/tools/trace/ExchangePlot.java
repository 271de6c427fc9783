package org.hympj.tools.trace;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.hympj.shm.trace.TraceEvent;
import org.hympj.shm.trace.TraceHeader;
import org.hympj.shm.trace.TraceJournal.RankTrace;

/**
 * The per-engine timeline of one exchange, as the figures of S3 (RSched) draw it: one row per
 * rank × engine (dma0..dma3 of the TCA model, then the IB adapter and PIO when used), one bar
 * per put from its modelled start to its modelled end on that engine, coloured by destination
 * rank (or by tag, which in a halo code names the direction), x in modelled microseconds from
 * each rank's first put issue of the exchange (the schedule of its engines, as RSched plans it;
 * ranks start their exchange at different real instants on a loaded machine), or with
 * {@code alignRanks = false} from the first issue of any rank (one clock for the job, showing
 * the skew between ranks). A thin line before a bar runs from the put's issue to its start:
 * the time it waited for its engine or links. Drawn with java.awt into a PNG (headless).
 */
public final class ExchangePlot {
    static final int LEFT = 96;
    static final int RIGHT = 24;
    static final int TOP = 58;
    static final int ROW_H = 22;
    static final int AXIS_H = 40;
    static final int LEGEND_LINE = 20;
    static final int LEGEND_ITEM_W = 120;
    static final int BOTTOM_PAD = 10;

    /** Colour the bars by destination rank or by message tag. */
    public enum ColorBy { DEST, TAG }

    /** What was drawn. */
    public static final class Result {
        public final int width;
        public final int height;
        public final int rows;
        public final int puts;
        /** Modelled µs from the first issue to the last put end. */
        public final double spanMicros;

        Result(int width, int height, int rows, int puts, double spanMicros) {
            this.width = width;
            this.height = height;
            this.rows = rows;
            this.puts = puts;
            this.spanMicros = spanMicros;
        }
    }

    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
        new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf),
        new Color(0xaec7e8), new Color(0xffbb78), new Color(0x98df8a), new Color(0xff9896), new Color(0xc5b0d5),
        new Color(0xc49c94)};

    private ExchangePlot() {
    }

    /** Height of a picture with {@code rows} rows and {@code legendItems} legend entries at {@code width}. */
    public static int height(int rows, int legendItems, int width) {
        int perLine = Math.max(1, (width - LEFT - RIGHT) / LEGEND_ITEM_W);
        int lines = (legendItems + perLine - 1) / perLine;
        return TOP + rows * ROW_H + AXIS_H + lines * LEGEND_LINE + BOTTOM_PAD;
    }

    /** Draws exchange {@code x} of {@code a} into {@code png}, {@code width} pixels wide. */
    public static Result draw(TraceAnalysis a, TraceAnalysis.Exchange x, ColorBy colorBy, boolean alignRanks, int width,
                              Path png) throws IOException {
        return draw(a, x, colorBy, Map.of(), alignRanks, width, png);
    }

    /**
     * As above; with {@code tagNames} (tag → name, e.g. a halo code's directions) bars coloured
     * by tag take one colour per name, and the legend and labels show the names.
     */
    public static Result draw(TraceAnalysis a, TraceAnalysis.Exchange x, ColorBy colorBy, Map<Integer, String> tagNames,
                              boolean alignRanks, int width, Path png) throws IOException {
        // rows: every rank's TCA engines, then the IB adapter / PIO / "no engine" when this exchange used them
        List<String> rowNames = new ArrayList<>();
        Map<String, Integer> rowOf = new LinkedHashMap<>();
        List<Integer> groupStarts = new ArrayList<>();
        for (RankTrace r : a.ranks()) {
            groupStarts.add(rowNames.size());
            TraceHeader h = r.header;
            List<String> names = new ArrayList<>();
            for (int i = 0; i < h.enginesPerRank; i++) {
                names.add("dma" + i);
            }
            for (String extra : new String[] {"ib", "pio", "none"}) {
                for (TraceEvent e : x.puts) {
                    if (e.rank == r.rank() && h.engineName(e.engine, e.channel).equals(extra)) {
                        names.add(extra);
                        break;
                    }
                }
            }
            if (names.isEmpty()) {
                names.add("none");
            }
            for (String n : names) {
                rowOf.put(r.rank() + " " + n, rowNames.size());
                rowNames.add("r" + r.rank() + " " + n);
            }
        }
        // colours
        TreeMap<Integer, String> keys = new TreeMap<>();
        for (TraceEvent e : x.puts) {
            keys.put(colorBy == ColorBy.DEST ? e.peer : e.tag, legend(e, colorBy, tagNames));
        }
        Map<String, Color> colors = new LinkedHashMap<>();
        for (String k : keys.values()) {
            colors.putIfAbsent(k, null);
        }
        int ci = 0;
        for (Map.Entry<String, Color> c : colors.entrySet()) {
            c.setValue(ci < PALETTE.length ? PALETTE[ci]
                : Color.getHSBColor((ci * 0.618034f) % 1f, 0.55f, 0.85f));
            ci++;
        }
        // time range (modelled ns): per rank (or for the job) from the first issue
        Map<Integer, Long> origin = new TreeMap<>();
        long jobOrigin = Long.MAX_VALUE;
        for (TraceEvent e : x.puts) {
            long issued = (long) a.rank(e.rank).header.modelledOf(e.nanos);
            long o = Math.min(issued, e.modelledStart);
            origin.merge(e.rank, o, Math::min);
            jobOrigin = Math.min(jobOrigin, o);
        }
        if (!alignRanks) {
            for (Map.Entry<Integer, Long> o : origin.entrySet()) {
                o.setValue(jobOrigin);
            }
        }
        long t0 = 0;
        long t1 = 0;
        for (TraceEvent e : x.puts) {
            t1 = Math.max(t1, e.modelledEnd - origin.get(e.rank));
        }
        if (t1 <= t0) {
            t1 = t0 + 1000;
        }
        int height = height(rowNames.size(), colors.size(), width);
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        Font font = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
        Font bold = new Font(Font.SANS_SERIF, Font.BOLD, 13);
        int plotW = width - LEFT - RIGHT;
        int plotBottom = TOP + rowNames.size() * ROW_H;
        double span = t1 - t0;
        // title
        TraceHeader h0 = a.header(0);
        g.setColor(Color.BLACK);
        g.setFont(bold);
        g.drawString(String.format(Locale.ROOT, "Exchange %d of %d: %d puts on %d ranks, model %s", x.number, x.of,
            x.puts.size(), a.ranks().size(), h0.model), LEFT, 20);
        g.setFont(font);
        g.drawString(String.format(Locale.ROOT, "job %s; modelled time from %s first put issue (span %.1f us); "
            + "bars: puts on their engine, coloured by %s; thin line: issue to start", h0.jobId,
            alignRanks ? "each rank's" : "the job's", span / 1000.0,
            colorBy == ColorBy.DEST ? "destination rank" : "tag"), LEFT, 38);
        // grid and axis
        double step = niceStep(span / 1000.0 / 8);
        g.setColor(new Color(0xe6e6e6));
        for (double t = 0; t <= span / 1000.0 + 1e-9; t += step) {
            int px = LEFT + (int) Math.round(t * 1000.0 / span * plotW);
            g.drawLine(px, TOP, px, plotBottom);
        }
        g.setColor(Color.BLACK);
        g.drawLine(LEFT, plotBottom, LEFT + plotW, plotBottom);
        FontMetrics fm = g.getFontMetrics(font);
        for (double t = 0; t <= span / 1000.0 + 1e-9; t += step) {
            int px = LEFT + (int) Math.round(t * 1000.0 / span * plotW);
            g.drawLine(px, plotBottom, px, plotBottom + 4);
            String s = fmt(t);
            g.drawString(s, px - fm.stringWidth(s) / 2, plotBottom + 16);
        }
        String axis = "modelled time (us)";
        g.drawString(axis, LEFT + plotW / 2 - fm.stringWidth(axis) / 2, plotBottom + 32);
        // row labels and rank separators
        for (int i = 0; i < rowNames.size(); i++) {
            int y = TOP + i * ROW_H;
            if (i % 2 == 1) {
                g.setColor(new Color(0xf7f7f7));
                g.fillRect(LEFT, y, plotW, ROW_H);
            }
            g.setColor(Color.BLACK);
            g.drawString(rowNames.get(i), 8, y + ROW_H / 2 + fm.getAscent() / 2 - 1);
        }
        g.setColor(new Color(0x999999));
        for (int s : groupStarts) {
            int y = TOP + s * ROW_H;
            g.drawLine(4, y, LEFT + plotW, y);
        }
        g.drawLine(4, plotBottom, LEFT + plotW, plotBottom);
        // puts
        g.setStroke(new BasicStroke(1f));
        for (TraceEvent e : x.puts) {
            TraceHeader h = a.rank(e.rank).header;
            Integer row = rowOf.get(e.rank + " " + h.engineName(e.engine, e.channel));
            if (row == null) {
                continue;
            }
            int y = TOP + row * ROW_H;
            long o = origin.get(e.rank);
            int xs = LEFT + (int) Math.round((e.modelledStart - o) / span * plotW);
            int xe = LEFT + (int) Math.round((e.modelledEnd - o) / span * plotW);
            int xi = LEFT + (int) Math.round((h.modelledOf(e.nanos) - o) / span * plotW);
            Color c = colors.get(legend(e, colorBy, tagNames));
            if (xi < xs) {
                g.setColor(c.darker());
                g.drawLine(xi, y + ROW_H / 2, xs, y + ROW_H / 2);
                g.drawLine(xi, y + ROW_H / 2 - 3, xi, y + ROW_H / 2 + 3);
            }
            int w = Math.max(2, xe - xs);
            g.setColor(c);
            g.fillRect(xs, y + 3, w, ROW_H - 6);
            g.setColor(c.darker().darker());
            g.drawRect(xs, y + 3, w, ROW_H - 6);
            String label = "\u2192" + e.peer + (colorBy == ColorBy.TAG ? " " + tagLabel(e.tag, tagNames) : "") + " "
                + bytes(e.bytes);
            if (fm.stringWidth(label) + 6 < w) {
                g.setColor(Color.WHITE);
                g.drawString(label, xs + 3, y + ROW_H / 2 + fm.getAscent() / 2 - 1);
            }
        }
        // legend
        int perLine = Math.max(1, plotW / LEGEND_ITEM_W);
        int k = 0;
        for (Map.Entry<String, Color> c : colors.entrySet()) {
            int lx = LEFT + (k % perLine) * LEGEND_ITEM_W;
            int ly = plotBottom + AXIS_H + (k / perLine) * LEGEND_LINE;
            g.setColor(c.getValue());
            g.fillRect(lx, ly + 2, 14, 12);
            g.setColor(Color.BLACK);
            g.drawString(c.getKey(), lx + 20, ly + 13);
            k++;
        }
        if (x.puts.isEmpty()) {
            g.setColor(Color.DARK_GRAY);
            g.drawString("no puts in this exchange (puts are recorded under a timing model: --model ha-pacs)",
                LEFT + 10, TOP + 15);
        }
        g.dispose();
        if (!ImageIO.write(img, "png", png.toFile())) {
            throw new IOException("no PNG writer in this JVM");
        }
        return new Result(width, height, rowNames.size(), x.puts.size(), span / 1000.0);
    }

    private static String legend(TraceEvent e, ColorBy colorBy, Map<Integer, String> tagNames) {
        return colorBy == ColorBy.DEST ? "to rank " + e.peer : tagNames.getOrDefault(e.tag, "tag " + e.tag);
    }

    private static String tagLabel(int tag, Map<Integer, String> tagNames) {
        return tagNames.getOrDefault(tag, "t" + tag);
    }

    static String bytes(long b) {
        if (b >= 1 << 20 && b % (1 << 20) == 0) {
            return (b >> 20) + "M";
        }
        if (b >= 1024 && b % 1024 == 0) {
            return (b >> 10) + "K";
        }
        return b + "B";
    }

    static double niceStep(double raw) {
        if (raw <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    static String fmt(double t) {
        if (t == Math.rint(t)) {
            return Long.toString((long) t);
        }
        return String.format(Locale.ROOT, "%.2f", t).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
