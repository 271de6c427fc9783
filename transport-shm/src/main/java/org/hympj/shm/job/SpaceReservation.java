package org.hympj.shm.job;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Allocates the pages of a job's files when the job starts, so that running out of /dev/shm
 * is an error at the start and never a SIGBUS on a page fault in a mapped file later: tmpfs
 * files are sparse, and two jobs that each pass the free-space check can together exceed it.
 *
 * <p>Java has no fallocate(2); large files go through util-linux {@code fallocate}, one
 * process per file, all started at once (the kernel's zeroing of the pages is most of the
 * cost, and runs on every core). Small files, a system without the command, or a file system
 * that refuses fallocate get their pages written with zeros instead.
 */
final class SpaceReservation {
    /** Files up to this size are written directly (cheaper than starting a process). */
    static final long WRITE_LIMIT = 1L << 20;
    private static final String FALLOCATE = findFallocate();

    private final List<Path> files = new ArrayList<>();
    private final List<Long> sizes = new ArrayList<>();

    /** Adds a file (already created, of any length) to reserve {@code size} bytes for. */
    void add(Path file, long size) {
        files.add(file);
        sizes.add(size);
    }

    /**
     * Reserves every added file's pages.
     *
     * @throws IOException naming the first file that could not be reserved and why
     *     (typically "No space left on device")
     */
    void reserve() throws IOException {
        List<Process> procs = new ArrayList<>();
        List<Integer> which = new ArrayList<>();
        IOException first = null;
        try {
            for (int i = 0; i < files.size(); i++) {
                long size = sizes.get(i);
                if (size > WRITE_LIMIT && FALLOCATE != null) {
                    procs.add(new ProcessBuilder(FALLOCATE, "-l", Long.toString(size), files.get(i).toString())
                        .redirectErrorStream(true).start());
                    which.add(i);
                } else {
                    writeZeros(files.get(i), size);
                }
            }
        } catch (IOException e) {
            first = e;
        }
        for (int k = 0; k < procs.size(); k++) {
            Process p = procs.get(k);
            Path f = files.get(which.get(k));
            try {
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                int rc = p.waitFor();
                if (rc != 0 && first == null) {
                    if (out.contains("not supported")) {
                        writeZeros(f, sizes.get(which.get(k))); // a file system without fallocate
                    } else {
                        first = new IOException(f + ": " + out.replaceFirst("^fallocate: (fallocate failed: )?", ""));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
                if (first == null) {
                    first = new IOException("interrupted while reserving " + f);
                }
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Writes zeros over the whole file: tmpfs allocates every page (ENOSPC here, not later). */
    static void writeZeros(Path file, long size) throws IOException {
        ByteBuffer z = ByteBuffer.allocateDirect((int) Math.min(size, 1L << 20));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (long pos = 0; pos < size; ) {
                z.clear();
                z.limit((int) Math.min(z.capacity(), size - pos));
                pos += ch.write(z, pos);
            }
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    private static String findFallocate() {
        for (String dir : new String[] {"/usr/bin", "/bin", "/usr/sbin", "/sbin"}) {
            Path p = Paths.get(dir, "fallocate");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
