package org.hympj.tools.sim;

import org.hympj.sim.Script;
import org.hympj.sim.Shape;
import org.hympj.sim.Sim;
import org.hympj.sim.SimConfig;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hympj.tools.chart.LineChart;

/** The simulator's line plots: named series of (x, y), optional log2 x axis, drawn by {@link LineChart}. */
final class SimPlot {
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};
    private static final Color GRID = new Color(0xe0e0e0);

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
        List<LineChart.Tick> yt = new ArrayList<>();
        for (int i = 0; i <= 5; i++) {
            double v = y1 * i / 5;
            yt.add(new LineChart.Tick(v, fmt(v), GRID));
        }
        List<LineChart.Tick> xt = new ArrayList<>();
        if (logX) {
            int ticks = (int) Math.round(x1 - x0);
            int step = Math.max(1, ticks / 12);
            for (int i = 0; i <= ticks; i += step) {
                xt.add(new LineChart.Tick(x0 + i, fmt(Math.pow(2, x0 + i)), null));
            }
        } else {
            double step = niceCeil((x1 - x0) / 10);
            for (double v = Math.ceil(x0 / step) * step; v <= x1 + 1e-9; v += step) {
                xt.add(new LineChart.Tick(v, fmt(v), null));
            }
        }
        LineChart chart = new LineChart(new LineChart.Layout(900, 560, 80, 190, 50, 60, 12, 12, 28, 8, 4, true), title,
            new LineChart.Axis(xLabel, null, logX ? LineChart.Scale.LOG2 : LineChart.Scale.LINEAR, x0, x1,
                LineChart.Snap.ROUND, xt, 4, Color.BLACK),
            new LineChart.Axis(yLabel, null, LineChart.Scale.LINEAR, 0, y1, LineChart.Snap.ROUND, yt, 0, Color.BLACK),
            new LineChart.Legend(false, 16, 22, 25, 31, 4, false, 0));
        int k = 0;
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            chart.add(new LineChart.Series(e.getKey(), COLORS[k++ % COLORS.length], e.getValue(), 2f, false, 6, false));
        }
        chart.write(file);
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
