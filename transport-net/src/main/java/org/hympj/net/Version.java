package org.hympj.net;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** This library's version (the build's project version), compared between every pair of hosts of a job. */
public final class Version {
    private static final String VERSION = load();

    private Version() {
    }

    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties missing from the transport-net jar");
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "");
            if (v.isEmpty() || v.contains("${")) {
                throw new IllegalStateException("version.properties was not filtered by the build: " + v);
            }
            return v;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read this library's version: " + e.getMessage(), e);
        }
    }
}
