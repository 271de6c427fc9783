package org.hympj.tools.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Point;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * A headless line chart written as a PNG (java.awt + ImageIO): a framed plot area with ticks and
 * grid lines on both axes, a title, axis labels, series drawn as lines (solid or dashed, with or
 * without dots) and a legend. The reports (ReproReport, FabricReport, SimReport) each give their
 * own layout, axes and colours; this class only draws.
 */
public final class LineChart {
    /** How axis units come from data values. */
    public enum Scale {
        LINEAR, LOG2, LOG10;

        double of(double v) {
            switch (this) {
                case LOG2:
                    return Math.log(v) / Math.log(2);
                case LOG10:
                    return Math.log10(v);
                default:
                    return v;
            }
        }
    }

    /**
     * How an axis makes a pixel offset (from the low end of the axis) whole. The reports differed
     * here and each keeps its own, so that their images stay pixel for pixel what they were.
     */
    public enum Snap {
        ROUND, FLOOR, CEIL;

        int of(double v) {
            switch (this) {
                case ROUND:
                    return (int) Math.round(v);
                case CEIL:
                    return (int) Math.ceil(v);
                default:
                    return (int) v;
            }
        }
    }

    /** A tick at {@code at} (axis units): its label (null: none) and grid line colour (null: none). */
    public record Tick(double at, String label, Color grid) {
    }

    /**
     * One axis: its label and where it goes (null: centred beside the plot; for the y axis the
     * point is (baseline x, screen y where the upward text starts)), the range {@code lo..hi} in
     * axis units, the ticks, the length of the tick marks below the x axis (0: none) and the
     * colour of marks and tick labels.
     */
    public record Axis(String label, Point labelAt, Scale scale, double lo, double hi, Snap snap, List<Tick> ticks,
        int mark, Color ink) {
    }

    /**
     * The sizes: image, margins around the plot area, fonts (ticks; axis labels; the title is bold
     * 15), the title's baseline, the gap and baseline shift of the y tick labels, and whether the
     * frame is drawn first with the y grid inside it (one pixel in from each side) or the grid first.
     */
    public record Layout(int width, int height, int left, int right, int top, int bottom, int tickFont, int labelFont,
        int titleBaseline, int yLabelGap, int yLabelShift, boolean gridOverFrame) {
        public int plotWidth() {
            return width - left - right;
        }

        public int plotHeight() {
            return height - top - bottom;
        }
    }

    /**
     * Where the legend rows go: inside the plot (top left) or to its right, the first row's offset
     * from the plot's top, the row pitch, the length of the sample line, the text's offsets from the
     * line's start, whether a dotted series shows its dot, and the extra gap before a note.
     */
    public record Legend(boolean inside, int firstRow, int pitch, int line, int textX, int textDy, boolean dots,
        int noteGap) {
    }

    /**
     * A line through {@code points} ({x, y} in data units, drawn in order); {@code name} null keeps it out
     * of the legend; {@code dot} is the dot's diameter (0: no dots); {@code dotsFirst} draws each dot
     * before the segment reaching it rather than after (the antialiased edges differ by a shade).
     */
    public record Series(String name, Color colour, List<double[]> points, float width, boolean dashed, int dot,
        boolean dotsFirst) {
    }

    private final Layout layout;
    private final String title;
    private final Axis x;
    private final Axis y;
    private final Legend legend;
    private final List<List<Series>> groups = new ArrayList<>();
    private Series note;

    public LineChart(Layout layout, String title, Axis x, Axis y, Legend legend) {
        this.layout = layout;
        this.title = title;
        this.x = x;
        this.y = y;
        this.legend = legend;
    }

    /**
     * Adds series drawn together, x by x (at each x, each one's segment and dot in the order given),
     * then their legend rows; one series alone is drawn point by point in its order. (ReproReport
     * draws a policy's two lines so; where they overlap, the antialiased shades depend on it.)
     */
    public LineChart add(Series... together) {
        groups.add(List.of(together));
        return this;
    }

    /** A legend row with no line in the plot, after the series' rows, its text in its own colour. */
    public LineChart note(String text, Color colour, float width, boolean dashed) {
        note = new Series(text, colour, List.of(), width, dashed, 0, false);
        return this;
    }

    private int px(double u) {
        return layout.left + x.snap.of(layout.plotWidth() * (u - x.lo) / (x.hi - x.lo));
    }

    private int py(double u) {
        return layout.top + layout.plotHeight() - y.snap.of(layout.plotHeight() * (u - y.lo) / (y.hi - y.lo));
    }

    /** Draws the chart and writes it to {@code png} (creating its folder). */
    public void write(Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Layout l = layout;
        int pw = l.plotWidth();
        int ph = l.plotHeight();
        BufferedImage img = new BufferedImage(l.width, l.height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, l.width, l.height);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, l.tickFont));
        if (l.gridOverFrame) {
            frame(g);
        }
        int inset = l.gridOverFrame ? 1 : 0;
        for (Tick t : y.ticks) {
            int py = py(t.at);
            if (t.grid != null) {
                g.setColor(t.grid);
                g.drawLine(l.left + inset, py, l.left + pw - inset, py);
            }
            if (t.label != null) {
                g.setColor(y.ink);
                int tw = g.getFontMetrics().stringWidth(t.label);
                g.drawString(t.label, l.left - l.yLabelGap - tw, py + l.yLabelShift);
            }
        }
        int base = l.top + ph;
        for (Tick t : x.ticks) {
            int px = px(t.at);
            if (t.grid != null) {
                g.setColor(t.grid);
                g.drawLine(px, l.top, px, base);
            }
            g.setColor(x.ink);
            if (x.mark > 0) {
                g.drawLine(px, base, px, base + x.mark);
            }
            if (t.label != null) {
                g.drawString(t.label, px - g.getFontMetrics().stringWidth(t.label) / 2, base + 18);
            }
        }
        if (!l.gridOverFrame) {
            frame(g);
        }
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, l.left, l.titleBaseline);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, l.labelFont));
        int xw = g.getFontMetrics().stringWidth(x.label);
        Point xa = x.labelAt != null ? x.labelAt : new Point(l.left + pw / 2 - xw / 2, l.height - 18);
        g.drawString(x.label, xa.x, xa.y);
        int yw = g.getFontMetrics().stringWidth(y.label);
        Point ya = y.labelAt != null ? y.labelAt : new Point(22, l.top + ph / 2 + yw / 2);
        g.rotate(-Math.PI / 2);
        g.drawString(y.label, -ya.y, ya.x);
        g.rotate(Math.PI / 2);
        int row = 0;
        for (List<Series> group : groups) {
            draw(g, group);
            for (Series s : group) {
                if (s.name != null) {
                    legendRow(g, s, l.top + legend.firstRow + legend.pitch * row++, Color.BLACK);
                }
            }
        }
        if (note != null) {
            legendRow(g, note, l.top + legend.firstRow + legend.pitch * row + legend.noteGap, note.colour);
        }
        g.dispose();
        Files.createDirectories(png.toAbsolutePath().getParent());
        ImageIO.write(img, "png", png.toFile());
    }

    private void frame(Graphics2D g) {
        g.setColor(Color.BLACK);
        g.drawRect(layout.left, layout.top, layout.plotWidth(), layout.plotHeight());
    }

    private static BasicStroke stroke(Series s) {
        return s.dashed ? new BasicStroke(s.width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {6f, 4f}, 0f) : new BasicStroke(s.width);
    }

    private void draw(Graphics2D g, List<Series> group) {
        int[] next = new int[group.size()];
        int[][] last = new int[group.size()][];
        while (true) {
            double x0 = Double.POSITIVE_INFINITY;
            for (int i = 0; i < group.size(); i++) {
                if (next[i] < group.get(i).points.size()) {
                    x0 = Math.min(x0, group.get(i).points.get(next[i])[0]);
                }
            }
            if (x0 == Double.POSITIVE_INFINITY) {
                return;
            }
            for (int i = 0; i < group.size(); i++) {
                Series s = group.get(i);
                if (next[i] < s.points.size() && s.points.get(next[i])[0] == x0) {
                    last[i] = step(g, s, s.points.get(next[i]), last[i]);
                    next[i]++;
                }
            }
        }
    }

    /** Draws the segment from {@code last} (null: none) to {@code p} and p's dot; returns p's pixel. */
    private int[] step(Graphics2D g, Series s, double[] p, int[] last) {
        g.setColor(s.colour);
        g.setStroke(stroke(s));
        int px = px(x.scale.of(p[0]));
        int py = py(y.scale.of(p[1]));
        if (s.dot > 0 && s.dotsFirst) {
            g.fillOval(px - s.dot / 2, py - s.dot / 2, s.dot, s.dot);
        }
        if (last != null) {
            g.drawLine(last[0], last[1], px, py);   // segment by segment: each dash pattern starts at a point
        }
        if (s.dot > 0 && !s.dotsFirst) {
            g.fillOval(px - s.dot / 2, py - s.dot / 2, s.dot, s.dot);
        }
        return new int[] {px, py};
    }

    private void legendRow(Graphics2D g, Series s, int ly, Color text) {
        int lx = layout.left + (legend.inside ? 0 : layout.plotWidth()) + 15;
        g.setColor(s.colour);
        g.setStroke(stroke(s));
        g.drawLine(lx, ly, lx + legend.line, ly);
        if (legend.dots && s.dot > 0) {
            g.fillOval(lx + legend.line / 2 - s.dot / 2, ly - s.dot / 2, s.dot, s.dot);
        }
        g.setColor(text);
        g.drawString(s.name, lx + legend.textX, ly + legend.textDy);
    }
}
