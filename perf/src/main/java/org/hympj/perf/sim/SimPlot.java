package org.hympj.perf.sim;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/** A small headless line plot (java.awt + ImageIO): named series of (x, y), optional log2 x axis. */
final class SimPlot {
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};

    final String title;
    final String xLabel;
    final String yLabel;
    final boolean logX;
    final Map<String, List<double[]>> series = new LinkedHashMap<>();

    SimPlot(String title, String xLabel, String yLabel, boolean logX) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
    }

    void add(String name, double x, double y) {
        series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {x, y});
    }

    private double fx(double x) {
        return logX ? Math.log(x) / Math.log(2) : x;
    }

    void write(Path file) throws IOException {
        int w = 900;
        int h = 560;
        int left = 80;
        int right = 190;
        int top = 50;
        int bottom = 60;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        double x0 = Double.MAX_VALUE;
        double x1 = -Double.MAX_VALUE;
        double y1 = 0;
        for (List<double[]> s : series.values()) {
            for (double[] p : s) {
                x0 = Math.min(x0, fx(p[0]));
                x1 = Math.max(x1, fx(p[0]));
                y1 = Math.max(y1, p[1]);
            }
        }
        if (x1 <= x0) {
            x1 = x0 + 1;
        }
        y1 = niceCeil(y1 * 1.05);
        int pw = w - left - right;
        int ph = h - top - bottom;
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, left, 28);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.drawRect(left, top, pw, ph);
        for (int i = 0; i <= 5; i++) {
            double v = y1 * i / 5;
            int y = top + ph - (int) Math.round(ph * v / y1);
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(left + 1, y, left + pw - 1, y);
            g.setColor(Color.BLACK);
            g.drawString(fmt(v), left - 8 - g.getFontMetrics().stringWidth(fmt(v)), y + 4);
        }
        if (logX) {
            int ticks = (int) Math.round(x1 - x0);
            int step = Math.max(1, ticks / 12);
            for (int i = 0; i <= ticks; i += step) {
                double fxv = x0 + i;
                tick(g, left + (int) Math.round(pw * (fxv - x0) / (x1 - x0)), top + ph, fmt(Math.pow(2, fxv)));
            }
        } else {
            double step = niceCeil((x1 - x0) / 10);
            for (double v = Math.ceil(x0 / step) * step; v <= x1 + 1e-9; v += step) {
                tick(g, left + (int) Math.round(pw * (v - x0) / (x1 - x0)), top + ph, fmt(v));
            }
        }
        g.drawString(xLabel, left + pw / 2 - g.getFontMetrics().stringWidth(xLabel) / 2, h - 18);
        g.rotate(-Math.PI / 2);
        g.drawString(yLabel, -(top + ph / 2) - g.getFontMetrics().stringWidth(yLabel) / 2, 22);
        g.rotate(Math.PI / 2);
        int k = 0;
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            Color c = COLORS[k % COLORS.length];
            g.setColor(c);
            g.setStroke(new BasicStroke(2f));
            int px = -1;
            int py = -1;
            for (double[] p : e.getValue()) {
                int x = left + (int) Math.round(pw * (fx(p[0]) - x0) / (x1 - x0));
                int y = top + ph - (int) Math.round(ph * p[1] / y1);
                if (px >= 0) {
                    g.drawLine(px, py, x, y);
                }
                g.fillOval(x - 3, y - 3, 6, 6);
                px = x;
                py = y;
            }
            int ly = top + 20 + 22 * k;
            g.drawLine(left + pw + 15, ly - 4, left + pw + 40, ly - 4);
            g.setColor(Color.BLACK);
            g.drawString(e.getKey(), left + pw + 46, ly);
            k++;
        }
        g.dispose();
        Files.createDirectories(file.toAbsolutePath().getParent());
        ImageIO.write(img, "png", file.toFile());
    }

    private static void tick(Graphics2D g, int x, int y, String label) {
        g.drawLine(x, y, x, y + 4);
        g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, y + 18);
    }

    private static double niceCeil(double v) {
        if (v <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String fmt(double v) {
        if (Math.abs(v - Math.rint(v)) < 1e-9) {
            return Long.toString(Math.round(v));
        }
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
