package org.hympj.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The allowed range of every timing-model parameter, checked when a model is loaded: a
 * negative latency, a NaN bandwidth or zero DMA engines would otherwise run and print
 * timings. Each message names the key, the value and what is allowed, e.g.
 * {@code tca.dma.engines = 0: must be an integer >= 1}. Unknown keys are refused too (a
 * misspelt key would silently keep the preset's value).
 */
final class ModelRules {
    /** What a value must be. */
    private enum Kind {
        /** A time or a cost (µs): finite, >= 0. */
        TIME("a finite number >= 0 (microseconds)"),
        /** A bandwidth (GB/s): finite, > 0. */
        BANDWIDTH("a finite number > 0 (GB/s)"),
        /** A size or a limit (bytes, descriptors): an integer >= 0. */
        LIMIT("an integer >= 0"),
        /** Something that counts things that must exist (engines, entries, chunk bytes): an integer >= 1. */
        COUNT("an integer >= 1"),
        /** One of a fixed set of words, or free text. */
        TEXT("");

        final String rule;

        Kind(String rule) {
            this.rule = rule;
        }
    }

    private static final Map<String, Kind> RULES = new LinkedHashMap<>();
    private static final Map<String, String[]> CHOICES = new LinkedHashMap<>();

    static {
        for (String k : new String[] {"tca.pio.latency", "tca.dma.latency.register", "tca.dma.latency.internal",
            "tca.dma.latency.host", "tca.hop.latency", "tca.blockstride.burst.cost", "tca.pack.element.cost",
            "tca.descriptor.build.cost", "ib.latency", "ib.rndv.cost", "ib.pack.element.cost", "ib.pack.block.cost",
            "ib.pack.fixed.cost", "onesided.poll.delay"}) {
            RULES.put(k, Kind.TIME);
        }
        for (String k : new String[] {"tca.pio.bandwidth", "tca.dma.bandwidth", "tca.link.bandwidth",
            "tca.bounce.bandwidth", "ib.bandwidth", "ib.gdr.direct.bandwidth", "ib.stage.bandwidth",
            "ib.link.bandwidth"}) {
            RULES.put(k, Kind.BANDWIDTH);
        }
        // limits: 0 is meaningful (tca.pio.limit = 0: no PIO; recv.engines = 0: receive engines not modelled)
        for (String k : new String[] {"tca.pio.limit", "tca.dma.register.max", "tca.dma.internal.max",
            "tca.dma.recv.engines", "ib.eager.limit", "ib.gdr.direct.limit", "ib.gdr.pipeline.threshold",
            "link.packet.limit"}) {
            RULES.put(k, Kind.LIMIT);
        }
        for (String k : new String[] {"tca.dma.engines", "tca.cache.entries", "tca.cache.promote.after",
            "ib.pipeline.chunk"}) {
            RULES.put(k, Kind.COUNT);
        }
        CHOICES.put("tca.cache.policy", new String[] {"lru", "lfu", "fifo"});
        CHOICES.put("fabrics", new String[] {"tca", "tca,ib"});
        CHOICES.put("topology", new String[] {"rings", "torus2d"});
        for (String k : new String[] {"name", "base", "model.torus", "tca.cache.policy", "fabrics", "topology"}) {
            RULES.put(k, Kind.TEXT);
        }
    }

    private ModelRules() {
    }

    /** The keys a rule covers (every key a model file may set). */
    static java.util.Set<String> keys() {
        return java.util.Collections.unmodifiableSet(RULES.keySet());
    }

    /**
     * Checks every key of {@code p}.
     *
     * @throws IllegalArgumentException naming the model, the first bad key, its value and the allowed range
     */
    static void check(String model, Properties p) {
        for (String key : new java.util.TreeSet<>(p.stringPropertyNames())) {
            String raw = p.getProperty(key).trim();
            Kind kind = RULES.get(key);
            if (kind == null) {
                throw new IllegalArgumentException("model " + model + ": unknown parameter " + key + " = " + raw
                    + " (known: " + String.join(", ", RULES.keySet()) + ")");
            }
            String why = why(key, kind, raw);
            if (why != null) {
                throw new IllegalArgumentException("model " + model + ": " + key + " = " + raw + ": " + why);
            }
        }
    }

    /** Why {@code raw} is not allowed for {@code key}, or null if it is. */
    private static String why(String key, Kind kind, String raw) {
        if (kind == Kind.TEXT) {
            String[] choices = CHOICES.get(key);
            if (choices != null && !java.util.Arrays.asList(choices).contains(raw.replace(" ", ""))) {
                return "must be one of " + String.join(", ", choices);
            }
            if (key.equals("model.torus") && !raw.isEmpty() && !raw.matches("\\s*[1-9]\\d*\\s*x\\s*[1-9]\\d*\\s*")) {
                return "must be XxY with X, Y >= 1 (e.g. 4x2)";
            }
            return null;
        }
        double v;
        try {
            v = Double.parseDouble(raw);
        } catch (NumberFormatException e) {
            return "must be " + kind.rule;
        }
        boolean ok;
        switch (kind) {
            case TIME:
                ok = Double.isFinite(v) && v >= 0;
                break;
            case BANDWIDTH:
                ok = Double.isFinite(v) && v > 0;
                break;
            case LIMIT:
                ok = Double.isFinite(v) && v == Math.rint(v) && v >= 0 && v <= Long.MAX_VALUE / 2;
                break;
            default:
                ok = Double.isFinite(v) && v == Math.rint(v) && v >= 1 && v <= Integer.MAX_VALUE;
                break;
        }
        return ok ? null : "must be " + kind.rule;
    }
}
