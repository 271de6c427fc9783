package org.hympj.perf.fabric;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Command-line options of the fabric drivers: {@code --key value}, flags, and positional values. */
final class Opts {
    final Map<String, String> values = new LinkedHashMap<>();
    final List<String> positional = new ArrayList<>();

    /** Parses {@code argv}; {@code withValue} are the options taking a value, {@code flags} those that do not. */
    static Opts parse(String[] argv, Set<String> withValue, Set<String> flags) {
        Opts o = new Opts();
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if (a.startsWith("--")) {
                if (flags.contains(a)) {
                    o.values.put(a, "true");
                } else if (withValue.contains(a)) {
                    if (i + 1 >= argv.length) {
                        throw new IllegalArgumentException(a + " needs a value");
                    }
                    o.values.put(a, argv[++i]);
                } else {
                    throw new IllegalArgumentException("unknown option " + a + "; known: " + withValue + " " + flags);
                }
            } else {
                o.positional.add(a);
            }
        }
        return o;
    }

    String get(String k, String def) {
        return values.getOrDefault(k, def);
    }

    boolean has(String k) {
        return values.containsKey(k);
    }

    double dbl(String k, double def) {
        return values.containsKey(k) ? Double.parseDouble(values.get(k)) : def;
    }

    int integer(String k, int def) {
        return values.containsKey(k) ? Integer.parseInt(values.get(k).trim()) : def;
    }

    /** Positional values as sizes (65536, 64k, 4m). */
    List<Long> sizes() {
        List<Long> s = new ArrayList<>();
        for (String p : positional) {
            s.add(bytes(p));
        }
        return s;
    }

    static long bytes(String v) {
        String s = v.trim().toLowerCase(java.util.Locale.ROOT);
        long mul = 1;
        if (s.endsWith("k")) {
            mul = 1 << 10;
        } else if (s.endsWith("m")) {
            mul = 1 << 20;
        } else if (s.endsWith("g")) {
            mul = 1L << 30;
        }
        if (mul != 1) {
            s = s.substring(0, s.length() - 1);
        }
        return Long.parseLong(s) * mul;
    }
}
