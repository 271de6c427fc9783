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
    /** Where the job's ranks run; this directory holds the files of its host's ranks only. */
    private final HostLayout hosts;

    private JobDirectory(Path dir, JobConfig config, HostLayout hosts) {
        this.dir = dir;
        this.config = config;
        this.hosts = hosts;
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

    /** The job's hosts, seen from this directory's host (one host holding every rank, for a job on one machine). */
    public HostLayout hosts() {
        return hosts;
    }

    /** The host's media driver directory (a job on several hosts). */
    public Path aeronDir() {
        return dir.resolve("aeron");
    }

    /** The job's key (a job on several hosts), readable by its owner only. */
    public Path keyFile() {
        return dir.resolve("job.key");
    }

    /** Writes the job's key (hexadecimal) with mode 0600 before anyone can read it. */
    public void writeKey(String hex) throws IOException {
        Path tmp = createTemp(keyFile(), 0);
        Files.writeString(tmp, hex);
        publish(tmp, keyFile());
    }

    /** Publishes the layout with every host's endpoint (the ranks read it at init). */
    public JobDirectory publishHosts(HostLayout layout) throws IOException {
        Path tmp = dir.resolve("." + HostLayout.FILE + ".tmp");
        layout.store(tmp);
        restrict(tmp);
        publish(tmp, dir.resolve(HostLayout.FILE));
        return new JobDirectory(dir, config, layout);
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

    /**
     * Bytes of the collective slots: two sets of one 320-byte slot per rank (the one-wave
     * allreduce and barrier), then the chunked allreduce's: two 64-byte stamp lines per rank, a
     * chunk per rank and the result chunk ({@link #collChunk}).
     */
    public static long collBytes(int ranks) {
        return 2L * ranks * 320 + 2L * ranks * 64 + (ranks + 1L) * collChunk(ranks);
    }

    /** The chunked allreduce's chunk: 64 KiB up to 16 ranks, 16 KiB above (the file stays small). */
    public static int collChunk(int ranks) {
        return ranks <= 16 ? 64 << 10 : 16 << 10;
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
        return bytesNeeded(c, c.size);
    }

    /** Bytes of /dev/shm a host's part of the job may use: its {@code local} ranks' files. */
    static long bytesNeeded(JobConfig c, int local) {
        return (long) local * (c.segmentBytes + pairBytes(c, local))
            + JobControl.fileSize(c.size) + timelinesBytes(c.size) + 4096;
    }

    /** Ring and bulk bytes of one rank's inbound files on a host of {@code local} ranks. */
    private static long pairBytes(JobConfig c, int local) {
        return (long) c.channels() * local * (ringSlotBytes(c.ringBytes) + bulkSlotBytes(c.bulkBytes));
    }

    /**
     * Creates the directory and every file of the job.
     *
     * @throws IOException with a clear message when /dev/shm has too little free space
     */
    public static JobDirectory create(JobConfig config) throws IOException {
        return create(config, HostLayout.single(config.size));
    }

    /**
     * Creates the directory of one host's part of a job (named for the job and the host when the
     * job spans several) and the files of that host's ranks.
     *
     * @throws IOException with a clear message when /dev/shm has too little free space
     */
    public static JobDirectory create(JobConfig config, HostLayout hosts) throws IOException {
        return create(config, hosts, PREFIX + config.jobId + (hosts.multiHost() ? "-" + hosts.host() : ""));
    }

    /** As {@link #create(JobConfig, HostLayout)}, in the directory {@code name} under the root. */
    public static JobDirectory create(JobConfig config, HostLayout hosts, String name) throws IOException {
        if (!name.startsWith(PREFIX) || name.contains("/")) {
            throw new IllegalArgumentException("a job directory's name starts with " + PREFIX + ", was " + name);
        }
        if (hosts.size() != config.size) {
            throw new IllegalArgumentException("the host layout holds " + hosts.size() + " ranks, the job "
                + config.size);
        }
        Path root = root();
        int local = hosts.localCount();
        long need = bytesNeeded(config, local);
        FileStore store = Files.getFileStore(root);
        long free = store.getUsableSpace();
        if (free < need + SPACE_MARGIN) {
            throw new IOException(String.format(
                "not enough free space in %s for a job of %d ranks: it needs %d MiB (segment %d MiB + rings %d MiB per rank)"
                    + " plus a %d MiB margin, and %d MiB are free; lower -np, --segment-size, --ring-size or --bulk-size, or free %s "
                    + "(bin/mpjrun --clean removes jobs left by dead launchers)",
                root, local, need >> 20, config.segmentBytes >> 20, pairBytes(config, local) >> 20, SPACE_MARGIN >> 20,
                free >> 20, root));
        }
        Path dir = root.resolve(name);
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        JobDirectory jd = new JobDirectory(dir, config, hosts);
        try {
            // every file is made sparse under a temporary name, then all get their pages at once,
            // then they are published: a job that cannot have its memory fails here, not by SIGBUS later
            List<Path[]> files = new ArrayList<>();
            SpaceReservation space = new SpaceReservation();
            for (int i = 0; i < local; i++) {
                int r = hosts.localRank(i);
                jd.stage(files, space, jd.ringFile(r), (long) config.channels() * local * ringSlotBytes(config.ringBytes));
                jd.stage(files, space, jd.bulkFile(r), (long) config.channels() * local * bulkSlotBytes(config.bulkBytes));
                jd.stage(files, space, jd.segmentFile(r), config.segmentBytes);
            }
            if (config.emulatesFabrics()) {
                jd.stage(files, space, jd.timelinesFile(), timelinesBytes(config.size));
            }
            jd.stage(files, space, jd.collFile(), Math.max(collBytes(config.size), FileLayout.hostCollBytes(local)));
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
                    need >> 20, local, root, e.getMessage(), config.segmentBytes >> 20, pairBytes(config, local) >> 20,
                    root), e);
            }
            for (Path[] f : files) {
                publish(f[0], f[1]);
            }
            if (hosts.multiHost()) {
                Path hostsTmp = dir.resolve("." + HostLayout.FILE + ".tmp");
                hosts.store(hostsTmp);
                restrict(hostsTmp);
                publish(hostsTmp, dir.resolve(HostLayout.FILE));
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
        } catch (IOException | RuntimeException | Error e) {
            // an Error too (a class that cannot load, memory): nobody else knows the directory yet
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
        JobConfig config = JobConfig.load(props);
        Path hostsFile = dir.resolve(HostLayout.FILE);
        HostLayout hosts = Files.exists(hostsFile) ? HostLayout.load(hostsFile) : HostLayout.single(config.size);
        return new JobDirectory(dir, config, hosts);
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
