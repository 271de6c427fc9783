package org.hympj.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;

/**
 * The parameters of a timing model: a flat property map read from a preset
 * ({@code ha-pacs}, {@code tofu}: resources beside this class, every value with its source)
 * or from a user's properties file, which may override a preset with {@code base = ha-pacs}.
 * Units in the files: microseconds, GB/s (1 GB/s = 1 byte/ns), bytes. Getters return
 * nanoseconds and bytes per nanosecond. Pure: reading happens once, at construction.
 */
public final class ModelParams {
    private final String name;
    private final Properties p;

    private ModelParams(String name, Properties p) {
        this.name = name;
        this.p = p;
    }

    /**
     * A preset name (ha-pacs, tofu) or a path to a properties file.
     *
     * @throws IllegalArgumentException for an unknown model, an unknown key, or a value out of
     *     its key's range (the message names the key, the value and the range)
     */
    public static ModelParams load(String nameOrFile) {
        if (nameOrFile == null || nameOrFile.isEmpty() || nameOrFile.equals("none")) {
            throw new IllegalArgumentException("no model: --model none runs native shared memory without timing");
        }
        Properties props = new Properties();
        try (InputStream in = ModelParams.class.getResourceAsStream(nameOrFile + ".properties")) {
            if (in != null) {
                props.load(in);
                ModelRules.check(nameOrFile, props);
                return new ModelParams(nameOrFile, props);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path f = Paths.get(nameOrFile);
        if (!Files.isRegularFile(f)) {
            throw new IllegalArgumentException("--model " + nameOrFile
                + ": not a preset (none, ha-pacs, tofu) and not a readable properties file");
        }
        try (InputStream in = Files.newInputStream(f)) {
            Properties user = new Properties();
            user.load(in);
            String base = user.getProperty("base");
            if (base != null) {
                props.putAll(load(base.trim()).p);
            }
            props.putAll(user);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read model file " + f + ": " + e.getMessage(), e);
        }
        String name = props.getProperty("name", f.getFileName().toString()).trim();
        ModelRules.check(name + " (" + f + ")", props);
        return new ModelParams(name, props);
    }

    /**
     * A copy with some values replaced (for fitting and tests).
     *
     * @throws IllegalArgumentException if the value is outside the key's range (see {@link #load})
     */
    public ModelParams with(String key, String value) {
        Properties q = new Properties();
        q.putAll(p);
        q.setProperty(key, value);
        ModelRules.check(name, q);
        return new ModelParams(name, q);
    }

    public String name() {
        return name;
    }

    public boolean has(String key) {
        return p.containsKey(key);
    }

    public String string(String key, String fallback) {
        return p.getProperty(key, fallback).trim();
    }

    private double number(String key) {
        String v = p.getProperty(key);
        if (v == null) {
            throw new IllegalArgumentException("model " + name + ": parameter " + key + " is missing");
        }
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("model " + name + ": parameter " + key + " is not a number: " + v);
        }
    }

    /** A time parameter (µs in the file), in ns. */
    public double ns(String key) {
        return number(key) * 1000.0;
    }

    /** A bandwidth parameter (GB/s in the file), in bytes per ns. */
    public double bytesPerNs(String key) {
        double v = number(key);
        if (v <= 0) {
            throw new IllegalArgumentException("model " + name + ": bandwidth " + key + " must be > 0");
        }
        return v;
    }

    /** A size or count parameter. */
    public long count(String key) {
        return (long) number(key);
    }

    public long count(String key, long fallback) {
        return has(key) ? count(key) : fallback;
    }

    /** The raw map (for printing the table of parameters). */
    public Properties raw() {
        Properties q = new Properties();
        q.putAll(p);
        return q;
    }
}
