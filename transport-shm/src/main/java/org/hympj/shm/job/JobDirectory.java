package org.hympj.shm.job;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * A job's directory in /dev/shm: {@code hympj-<job>/} (mode 0700) holding job.properties,
 * job.ctl, and per rank a ring file (the inbound packet rings, one per sender) and a
 * segment file (the registered memory peers write into). Files are mode 0600, created
 * under a temporary name and renamed into place so nobody maps a half-built file.
 *
 * <p>The creator (the launcher, or a rank run alone) deletes the directory when the job ends.
 */
public final class JobDirectory {
    public static final String PREFIX = "hympj-";
    /** Kept free in /dev/shm beyond what a job needs (tmpfs without swap: full means out of memory). */
    static final long SPACE_MARGIN = 64L << 20;

    private final Path dir;
    private final JobConfig config;

    private JobDirectory(Path dir, JobConfig config) {
        this.dir = dir;
        this.config = config;
    }

    /** /dev/shm, or $HYMPJ_SHM_ROOT when set (tests of the space check). */
    public static Path root() {
        String r = System.getenv("HYMPJ_SHM_ROOT");
        return Paths.get(r != null && !r.isEmpty() ? r : "/dev/shm");
    }

    public Path path() {
        return dir;
    }

    public JobConfig config() {
        return config;
    }

    public Path ringFile(int rank) {
        return dir.resolve("r" + rank + ".rings");
    }

    public Path bulkFile(int rank) {
        return dir.resolve("r" + rank + ".bulk");
    }

    /** Bytes of one bulk slot (header + region, page aligned). */
    public static long bulkSlotBytes(int bulkBytes) {
        return FileLayout.bulkSlotBytes(bulkBytes);
    }

    public Path segmentFile(int rank) {
        return dir.resolve("r" + rank + ".seg");
    }

    /** Rank R's one-sided buffers (Remote Address Buffer and complete buffer rings), with --p2p onesided. */
    public Path oneSidedFile(int rank) {
        return dir.resolve("r" + rank + ".os");
    }

    /** Slots of the one-wave allreduce of small counts (world communicator, native). */
    public Path collFile() {
        return dir.resolve("job.coll");
    }

    /** Bytes of the collective slots: two sets of one 320-byte slot per rank. */
    public static long collBytes(int ranks) {
        return 2L * ranks * 320;
    }

    /** Engine and link timelines of the emulated fabrics (only when the job emulates them). */
    public Path timelinesFile() {
        return dir.resolve("job.timelines");
    }

    /** Bytes of the timelines file: room for 64 resources per rank (engines, links, adapters). */
    public static long timelinesBytes(int ranks) {
        return FileLayout.timelinesBytes(ranks);
    }

    public Path controlFile() {
        return dir.resolve("job.ctl");
    }

    /** Bytes of one ring slot (ring capacity + Agrona trailer, page aligned). */
    public static long ringSlotBytes(int ringBytes) {
        long raw = ringBytes + RingBufferDescriptor.TRAILER_LENGTH;
        return (raw + 4095) & ~4095L;
    }

    /** Bytes of /dev/shm the whole job may use. */
    public static long bytesNeeded(JobConfig c) {
        return (long) c.size * (c.segmentBytes
            + (long) c.channels() * c.size * (ringSlotBytes(c.ringBytes) + bulkSlotBytes(c.bulkBytes)))
            + JobControl.fileSize(c.size) + timelinesBytes(c.size) + 4096;
    }

    /**
     * Creates the directory and every file of the job.
     *
     * @throws IOException with a clear message when /dev/shm has too little free space
     */
    public static JobDirectory create(JobConfig config) throws IOException {
        Path root = root();
        long need = bytesNeeded(config);
        FileStore store = Files.getFileStore(root);
        long free = store.getUsableSpace();
        if (free < need + SPACE_MARGIN) {
            throw new IOException(String.format(
                "not enough free space in %s for a job of %d ranks: it needs %d MiB (segment %d MiB + rings %d MiB per rank)"
                    + " plus a %d MiB margin, and %d MiB are free; lower --segment-size, --ring-size or --bulk-size, or free %s "
                    + "(bin/mpjrun --clean removes jobs left by dead launchers)",
                root, config.size, need >> 20, config.segmentBytes >> 20,
                (config.channels() * config.size * (ringSlotBytes(config.ringBytes) + bulkSlotBytes(config.bulkBytes))) >> 20, SPACE_MARGIN >> 20, free >> 20, root));
        }
        Path dir = root.resolve(PREFIX + config.jobId);
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        JobDirectory jd = new JobDirectory(dir, config);
        try {
            for (int r = 0; r < config.size; r++) {
                jd.createFile(jd.ringFile(r), (long) config.channels() * config.size * ringSlotBytes(config.ringBytes));
                jd.createFile(jd.bulkFile(r), (long) config.channels() * config.size * bulkSlotBytes(config.bulkBytes));
                jd.createFile(jd.segmentFile(r), config.segmentBytes);
            }
            if (config.emulatesFabrics()) {
                jd.createFile(jd.timelinesFile(), timelinesBytes(config.size));
            }
            jd.createFile(jd.collFile(), collBytes(config.size));
            if (config.p2p.equals("onesided")) {
                for (int r = 0; r < config.size; r++) {
                    jd.createFile(jd.oneSidedFile(r), FileLayout.oneSidedFileBytes(config.size));
                }
            }
            Path ctlTmp = jd.createTemp(jd.controlFile(), JobControl.fileSize(config.size));
            JobControl.create(ctlTmp, config.size).close();
            publish(ctlTmp, jd.controlFile());
            Path propsTmp = dir.resolve(".job.properties.tmp");
            config.store(propsTmp);
            restrict(propsTmp);
            publish(propsTmp, dir.resolve("job.properties"));  // last: its presence means "complete"
        } catch (IOException | RuntimeException e) {
            jd.delete();
            throw e;
        }
        return jd;
    }

    /** Opens an existing job (a rank joining the job its launcher made). */
    public static JobDirectory open(Path dir) throws IOException {
        Path props = dir.resolve("job.properties");
        if (!Files.exists(props)) {
            throw new NoSuchFileException(props.toString(), null, "HyMPJ job directory is missing or incomplete");
        }
        return new JobDirectory(dir, JobConfig.load(props));
    }

    public JobControl openControl() throws IOException {
        return JobControl.open(controlFile(), config.size);
    }

    private void createFile(Path target, long size) throws IOException {
        publish(createTemp(target, size), target);
    }

    private Path createTemp(Path target, long size) throws IOException {
        Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (RandomAccessFile f = new RandomAccessFile(tmp.toFile(), "rw")) {
            f.setLength(size); // sparse on tmpfs: pages cost memory only when touched
        }
        return tmp;
    }

    private static void restrict(Path p) throws IOException {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
    }

    private static void publish(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target);
        }
    }

    /** Removes the directory and everything in it; quiet if already gone. */
    public void delete() {
        deleteTree(dir);
    }

    public static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: a concurrent delete by another cleaner is fine
                }
            });
        } catch (IOException ignored) {
            // directory vanished meanwhile
        }
    }

    /**
     * Job directories under the root whose creator is gone (launcher dead, or no readable
     * job.properties and older than a minute).
     */
    public static List<Path> stale() throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root(), PREFIX + "*")) {
            for (Path d : ds) {
                if (!Files.isDirectory(d)) {
                    continue;
                }
                try {
                    JobConfig c = JobConfig.load(d.resolve("job.properties"));
                    if (!c.launcherAlive()) {
                        out.add(d);
                    }
                } catch (IOException | RuntimeException e) {
                    long age = System.currentTimeMillis() - Files.getLastModifiedTime(d).toMillis();
                    if (age > 60_000) {
                        out.add(d);
                    }
                }
            }
        }
        return out;
    }
}
