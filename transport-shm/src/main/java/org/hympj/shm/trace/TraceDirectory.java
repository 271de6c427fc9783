package org.hympj.shm.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The layout of a trace directory ({@code --trace DIR}): {@code DIR/rank-<r>/} holds rank r's
 * journal (a Chronicle Queue). Plain file handling, no Chronicle classes: the launcher uses it.
 */
public final class TraceDirectory {
    /** A rank's journal directory is {@code rank-<r>} under the trace directory. */
    public static final String RANK_PREFIX = "rank-";

    private TraceDirectory() {
    }

    /** The journal directory of rank {@code r} under {@code dir}. */
    public static Path rankDir(Path dir, int rank) {
        return dir.resolve(RANK_PREFIX + rank);
    }

    /** The {@code rank-*} directories under {@code dir}. */
    public static List<Path> rankDirs(Path dir) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, RANK_PREFIX + "*")) {
            for (Path p : ds) {
                if (Files.isDirectory(p)) {
                    out.add(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /**
     * Makes {@code dir} ready for a job's journals: creates it if missing and removes the
     * {@code rank-*} journals of an earlier job (a new job replaces them). Refuses a
     * {@code rank-*} entry holding anything but Chronicle Queue files, so a wrong directory
     * is never emptied.
     */
    public static void prepare(Path dir) throws IOException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IOException("trace directory " + dir + " exists and is not a directory");
        }
        Files.createDirectories(dir);
        for (Path p : rankDirsAndFiles(dir)) {
            if (!Files.isDirectory(p)) {
                throw new IOException("trace directory " + dir + " holds a file " + p.getFileName()
                    + "; choose an empty or new directory");
            }
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
                for (Path f : ds) {
                    String n = f.getFileName().toString();
                    if (!Files.isRegularFile(f) || !(n.endsWith(".cq4") || n.endsWith(".cq4t"))) {
                        throw new IOException("trace directory " + dir + ": " + p.getFileName()
                            + " holds something else than a journal (" + n + "); choose an empty or new directory");
                    }
                }
            }
        }
        for (Path p : rankDirsAndFiles(dir)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
                for (Path f : ds) {
                    Files.delete(f);
                }
            }
            Files.delete(p);
        }
    }

    private static List<Path> rankDirsAndFiles(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, RANK_PREFIX + "*")) {
            for (Path p : ds) {
                out.add(p);
            }
        }
        return out;
    }
}
