package org.hympj.shm.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The layout of a trace directory ({@code --trace DIR}): {@code DIR/rank-<r>/} holds rank r's
 * journal (a Chronicle Queue). Plain file handling, no Chronicle classes: the launcher uses it.
 * Directories HyMPJ creates are 0700 (a trace shows who talked to whom, and when); links are
 * never followed.
 */
public final class TraceDirectory {
    /** A rank's journal directory is {@code rank-<r>} under the trace directory. */
    public static final String RANK_PREFIX = "rank-";
    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;
    private static final FileAttribute<Set<PosixFilePermission>> PRIVATE_DIR =
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

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
                if (Files.isDirectory(p, NOFOLLOW)) {
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
     * Makes {@code dir} ready for a job's journals: creates it (mode 0700) if missing and
     * removes the {@code rank-*} journals of an earlier job (a new job replaces them). Refuses
     * a {@code rank-*} entry holding anything but Chronicle Queue files, so a wrong directory
     * is never emptied, and never follows a symbolic link: {@code dir} itself, a
     * {@code rank-*} entry or a file in one that is a link is an error naming it.
     */
    public static void prepare(Path dir) throws IOException {
        if (Files.isSymbolicLink(dir)) {
            throw new IOException("trace directory " + dir + " is a symbolic link; give the directory itself");
        }
        if (Files.exists(dir, NOFOLLOW) && !Files.isDirectory(dir, NOFOLLOW)) {
            throw new IOException("trace directory " + dir + " exists and is not a directory");
        }
        if (!Files.exists(dir, NOFOLLOW)) {
            Files.createDirectories(dir, PRIVATE_DIR);
        }
        for (Path p : rankDirsAndFiles(dir)) {
            if (Files.isSymbolicLink(p)) {
                throw new IOException("trace directory " + dir + ": " + p + " is a symbolic link; HyMPJ does not "
                    + "follow links it did not create (remove it, or choose an empty or new directory)");
            }
            if (!Files.isDirectory(p, NOFOLLOW)) {
                throw new IOException("trace directory " + dir + " holds a file " + p.getFileName()
                    + "; choose an empty or new directory");
            }
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
                for (Path f : ds) {
                    String n = f.getFileName().toString();
                    if (Files.isSymbolicLink(f)) {
                        throw new IOException("trace directory " + dir + ": " + f + " is a symbolic link; HyMPJ does not "
                            + "follow links it did not create (remove it, or choose an empty or new directory)");
                    }
                    if (!Files.isRegularFile(f, NOFOLLOW) || !(n.endsWith(".cq4") || n.endsWith(".cq4t"))) {
                        throw new IOException("trace directory " + dir + ": " + p.getFileName()
                            + " holds something else than a journal (" + n + "); choose an empty or new directory");
                    }
                }
            }
        }
        for (Path p : rankDirsAndFiles(dir)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
                for (Path f : ds) {
                    Files.delete(f);   // delete() removes a link itself, never its target
                }
            }
            Files.delete(p);
        }
    }

    /**
     * Creates rank {@code r}'s journal directory, mode 0700: the Chronicle Queue files in it
     * (created by Chronicle with the process umask, usually 0644) are then unreachable to
     * other users. Fails if anything already has its name (a link planted after
     * {@link #prepare} included): nothing is followed.
     */
    public static Path createRankDir(Path rankDir) throws IOException {
        Files.createDirectory(rankDir, PRIVATE_DIR);
        // createDirectory's mode is filtered by the umask; 0700 can only lose bits, but be exact
        Files.setPosixFilePermissions(rankDir, PosixFilePermissions.fromString("rwx------"));
        return rankDir;
    }

    /** Makes the journal files in a rank directory 0600 (best effort, at close: Chronicle made them). */
    public static void restrictFiles(Path rankDir) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(rankDir)) {
            for (Path f : ds) {
                if (Files.isRegularFile(f, NOFOLLOW)) {
                    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
                }
            }
        } catch (IOException ignored) {
            // the directory is 0700 already: the files are not reachable by others either way
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
