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
 * under a temporary name and renamed into place so nobody maps a half-built file. Every
 * file's pages are allocated at creation ({@link SpaceReservation}): a job that does not fit
 * in /dev/shm fails to start with a message, instead of a rank dying of SIGBUS later.
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
                    + " plus a %d MiB margin, and %d MiB are free; lower -np, --segment-size, --ring-size or --bulk-size, or free %s "
                    + "(bin/mpjrun --clean removes jobs left by dead launchers)",
                root, config.size, need >> 20, config.segmentBytes >> 20,
                (config.channels() * config.size * (ringSlotBytes(config.ringBytes) + bulkSlotBytes(config.bulkBytes))) >> 20, SPACE_MARGIN >> 20, free >> 20, root));
        }
        Path dir = root.resolve(PREFIX + config.jobId);
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        JobDirectory jd = new JobDirectory(dir, config);
        try {
            // every file is made sparse under a temporary name, then all get their pages at once,
            // then they are published: a job that cannot have its memory fails here, not by SIGBUS later
            List<Path[]> files = new ArrayList<>();
            SpaceReservation space = new SpaceReservation();
            for (int r = 0; r < config.size; r++) {
                jd.stage(files, space, jd.ringFile(r), (long) config.channels() * config.size * ringSlotBytes(config.ringBytes));
                jd.stage(files, space, jd.bulkFile(r), (long) config.channels() * config.size * bulkSlotBytes(config.bulkBytes));
                jd.stage(files, space, jd.segmentFile(r), config.segmentBytes);
            }
            if (config.emulatesFabrics()) {
                jd.stage(files, space, jd.timelinesFile(), timelinesBytes(config.size));
            }
            jd.stage(files, space, jd.collFile(), collBytes(config.size));
            // the control file too: a job started beside this one may take the last pages meanwhile
            Path ctlTmp = jd.stage(files, space, jd.controlFile(), JobControl.fileSize(config.size));
            if (config.p2p.equals("onesided")) {
                for (int r = 0; r < config.size; r++) {
                    jd.stage(files, space, jd.oneSidedFile(r), FileLayout.oneSidedFileBytes(config.size));
                }
            }
            try {
                space.reserve();
                JobControl.create(ctlTmp, config.size).close(); // on its reserved pages, before it is published
            } catch (IOException e) {
                throw new IOException(String.format(
                    "cannot reserve the %d MiB of shared memory a job of %d ranks needs in %s (%s); lower -np, "
                        + "--segment-size (%d MiB per rank), --ring-size or --bulk-size (%d MiB per rank), or free %s "
                        + "(bin/mpjrun --clean removes jobs left by dead launchers)",
                    need >> 20, config.size, root, e.getMessage(), config.segmentBytes >> 20,
                    (config.channels() * config.size * (ringSlotBytes(config.ringBytes) + bulkSlotBytes(config.bulkBytes))) >> 20,
                    root), e);
            }
            for (Path[] f : files) {
                publish(f[0], f[1]);
            }
            Path propsTmp = dir.resolve(".job.properties.tmp");
            try {
                config.store(propsTmp); // a page of its own: the one write left after the reservation
            } catch (IOException e) {
                throw new IOException("not enough free space in " + root + " to write the job's properties ("
                    + e.getMessage() + "); lower -np or --segment-size, or free " + root, e);
            }
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

    /** Creates {@code target}'s temporary file and lists it for reservation and publication. */
    private Path stage(List<Path[]> files, SpaceReservation space, Path target, long size) throws IOException {
        Path tmp = createTemp(target, size);
        files.add(new Path[] {tmp, target});
        space.add(tmp, size);
        return tmp;
    }

    private Path createTemp(Path target, long size) throws IOException {
        Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (RandomAccessFile f = new RandomAccessFile(tmp.toFile(), "rw")) {
            f.setLength(size); // sparse until SpaceReservation gives it its pages
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

    /** What {@code mpjrun --clean} decided about one job directory. */
    public static final class Verdict {
        public final Path dir;
        /** True when the directory may be removed: its launcher and every rank are gone. */
        public final boolean stale;
        /** Why it is kept ("" when stale). */
        public final String reason;

        Verdict(Path dir, boolean stale, String reason) {
            this.dir = dir;
            this.stale = stale;
            this.reason = reason;
        }
    }

    /**
     * Job directories under the root whose creator is gone (launcher dead, or no readable
     * job.properties and older than a minute).
     */
    public static List<Path> stale() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Verdict v : survey()) {
            if (v.stale) {
                out.add(v.dir);
            }
        }
        return out;
    }

    /**
     * Every job directory under the root, each judged: stale when its launcher is gone and no
     * rank registered in its job.ctl is still running (pid and start time), or when it has no
     * readable job.properties and is older than a minute (a creation that died half way).
     * A job whose launcher is gone but whose ranks still run is kept: removing its files
     * under them would turn a rank's next page fault into SIGBUS.
     */
    public static List<Verdict> survey() throws IOException {
        List<Verdict> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root(), PREFIX + "*")) {
            for (Path d : ds) {
                if (!Files.isDirectory(d, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                JobConfig c;
                try {
                    c = JobConfig.load(d.resolve("job.properties"));
                } catch (IOException | RuntimeException e) {
                    long age = System.currentTimeMillis() - Files.getLastModifiedTime(d).toMillis();
                    out.add(age > 60_000 ? new Verdict(d, true, "")
                        : new Verdict(d, false, "being created (incomplete, less than a minute old)"));
                    continue;
                }
                if (c.launcherAlive()) {
                    out.add(new Verdict(d, false, "its launcher (pid " + c.launcherPid + ") is running"));
                    continue;
                }
                List<Integer> live = List.of();
                try (JobControl ctl = JobControl.open(d.resolve("job.ctl"), c.size)) {
                    live = ctl.liveRanks();
                } catch (IOException | RuntimeException e) {
                    // no usable job.ctl: no rank can have registered in it
                }
                if (live.isEmpty()) {
                    out.add(new Verdict(d, true, ""));
                } else {
                    out.add(new Verdict(d, false, "its launcher (pid " + c.launcherPid + ") is gone but rank"
                        + (live.size() == 1 ? " " : "s ") + live + " still run"));
                }
            }
        }
        return out;
    }
}
