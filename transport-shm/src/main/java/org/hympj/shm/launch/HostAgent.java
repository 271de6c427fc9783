package org.hympj.shm.launch;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.hympj.net.HostDriver;
import org.hympj.net.Version;
import org.hympj.shm.job.HostLayout;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.job.JobControl;
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.pml.Idler;

/**
 * A job's part on one host, started there by the launcher through the launch agent (a plain
 * process for {@code --local-hosts}, {@code ssh HOST} for a hostfile): it checks its library is
 * the launcher's, creates the host's job directory (its ranks' files), starts the host's media
 * driver on the named address (or, when the host's first rank runs it, only checks that the
 * address and port can be bound), reports the endpoint, and once told every host's, starts its
 * ranks and watches them — their output, their exits and the host's abort flag go to the
 * launcher; the launcher's aborts, the mirrored ends of other hosts' ranks, TERM, KILL and END
 * come back ({@link AgentWire}, over this process's standard input and output).
 *
 * <p>Whatever ends it — END, the launcher's silence (its end of the pipe closed: it died), a
 * signal — the ranks are stopped, the driver closed and the host's files removed. The ranks'
 * watchdog watches this process as their launcher.
 */
public final class HostAgent {
    private static final long WATCH_MS = 5;
    /** How long an agent whose job was aborted and whose ranks all ended waits for the launcher's END. */
    private static final long ORPHAN_NS = TimeUnit.SECONDS.toNanos(10);

    private final PrintStream wire;
    private final BufferedReader in;
    private final ConcurrentLinkedQueue<String> commands = new ConcurrentLinkedQueue<>();
    private volatile boolean launcherGone;
    /** When the launcher last wrote a line (its heartbeat among them). */
    private volatile long lastHeardNs = System.nanoTime();
    /** Beats exchanged with the launcher (a job on hostfile hosts): 0 when not. */
    private long silenceNs;
    private JobDirectory job;
    private HostDriver driver;
    private Process[] procs = new Process[0];
    private int first;
    private final List<Thread> pumps = new ArrayList<>();
    private volatile boolean stopping;

    private HostAgent(PrintStream wire, BufferedReader in) {
        this.wire = wire;
        this.in = in;
    }

    public static void main(String[] args) {
        PrintStream wire = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
            StandardCharsets.UTF_8);
        System.setOut(System.err); // standard output is the launcher's channel: nothing else may write to it
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        HostAgent agent = new HostAgent(wire, in);
        Runtime.getRuntime().addShutdownHook(new Thread(agent::cleanup, "hympj-agent-stop"));
        int code;
        try {
            code = agent.run();
        } catch (Throwable t) {
            AgentWire.send(wire, AgentWire.FAIL + " " + t);
            code = 1;
        }
        agent.cleanup();
        System.exit(code);
    }

    private int run() throws IOException {
        String line = AgentWire.read(in);
        if (line == null || !AgentWire.verb(line).equals(AgentWire.JOB)) {
            AgentWire.send(wire, AgentWire.FAIL + " expected JOB first, got " + line);
            return 2;
        }
        Properties p = decode(line.substring(AgentWire.JOB.length() + 1));
        int host = Integer.parseInt(p.getProperty("host"));
        HostLayout layout = HostLayout.parse(p.getProperty("layout")).on(host);
        String where = "host " + layout.name(host) + " (" + java.net.InetAddress.getLocalHost().getHostName() + ")";
        String theirs = p.getProperty("version");
        if (!Version.get().equals(theirs)) {
            AgentWire.send(wire, AgentWire.FAIL + " " + where + " runs HyMPJ " + Version.get() + ", the launcher "
                + theirs + ": every host of a job needs the same library");
            return 3;
        }
        JobConfig config = JobConfig.parse(p.getProperty("config")).withLauncher(ProcessHandle.current());
        LaunchSpec spec = LaunchSpec.ofRankText(p.getProperty("ranks"));
        spec.output(LaunchSpec.Output.TAG); // stdout and stderr apart, both pumped to the launcher
        String endpoint;
        try {
            job = JobDirectory.create(config, layout);
            job.writeKey(p.getProperty("key"));
            if (layout.net().driverInRank) {
                endpoint = HostDriver.reserve(p.getProperty("iface"), Integer.parseInt(p.getProperty("port")));
            } else {
                driver = HostDriver.launch(job.aeronDir(), layout.net(),
                    Idler.strategy(p.getProperty("driver.idle"), 1, Runtime.getRuntime().availableProcessors()),
                    p.getProperty("iface"), Integer.parseInt(p.getProperty("port")));
                endpoint = driver.endpoint();
            }
        } catch (IOException | RuntimeException e) {
            AgentWire.send(wire, AgentWire.FAIL + " " + where + ": " + e.getMessage());
            return 1;
        }
        AgentWire.send(wire, AgentWire.READY + " " + endpoint);
        line = AgentWire.read(in);
        if (line == null || !AgentWire.verb(line).equals(AgentWire.HOSTS)) {
            return 1; // the launcher gave up (another host failed): clean up
        }
        job = job.publishHosts(HostLayout.parse(line.substring(AgentWire.HOSTS.length() + 1)).on(host));
        if (Boolean.parseBoolean(p.getProperty("heartbeat", "false"))) {
            silenceNs = Heartbeat.silenceNs(layout.net().livenessNs);
        }
        lastHeardNs = System.nanoTime();
        startReader();
        String cwd = p.getProperty("workdir", "");
        File workDir = cwd.isEmpty() ? null : new File(cwd);
        int[] cpus = null;
        String taskset = null;
        if (spec.bindTo.equals("core")) {
            taskset = CpuBinding.taskset();
            cpus = CpuBinding.allowedCpus();
        }
        first = layout.firstRank(host);
        procs = new Process[layout.localCount()];
        // the ranks that share this machine's cores: this host's, or every group's when --local-hosts
        // puts them all on one machine (a cluster's 4 hosts x 8 ranks on 8 cores each do not share one)
        int sharing = spec.groupsOnOneMachine() ? spec.np : layout.localCount();
        List<String> flags = Launcher.jvmFlags();
        try (JobControl control = job.openControl()) {
            for (int i = 0; i < procs.length; i++) {
                int cpuSlot = spec.bindByJobRank ? first + i : i;
                procs[i] = Launcher.startRank(spec, job.path(), first + i, cpuSlot, flags, taskset, cpus, workDir,
                    sharing);
                pump(first + i, procs[i].getInputStream(), AgentWire.OUT);
                pump(first + i, procs[i].getErrorStream(), AgentWire.ERR);
            }
            return watch(control, where);
        }
    }

    /** Watches the ranks and the launcher's commands until END (or the launcher is gone). */
    private int watch(JobControl control, String where) {
        boolean[] exited = new boolean[procs.length];
        int running = procs.length;
        long idleSince = 0; // when the job was aborted and no rank here ran any more
        long lastBeat = 0;
        boolean abortReported = false;
        while (true) {
            for (int i = 0; i < procs.length; i++) {
                if (!exited[i] && !procs[i].isAlive()) {
                    exited[i] = true;
                    running--;
                    int r = first + i;
                    drain(i);
                    AgentWire.send(wire, AgentWire.EXIT + " " + r + " " + procs[i].exitValue() + " " + control.state(r));
                }
            }
            if (!abortReported && control.aborted()) {
                abortReported = true; // raised by a rank of this host (a lost connection) or by the launcher's ABORT
                AgentWire.send(wire, AgentWire.ABORTED + " " + control.failedRank() + " " + control.failedCode());
            }
            String c;
            while ((c = commands.poll()) != null) {
                String[] f = AgentWire.split(c, 3);
                switch (f[0]) {
                    case AgentWire.ABORT:
                        control.abort(Integer.parseInt(f[1]), Integer.parseInt(f[2]));
                        abortReported = true;
                        break;
                    case AgentWire.MIRROR:
                        // a rank of another host finalized and exited: the ranks here fail receives only it could match
                        control.setState(Integer.parseInt(f[1]), Integer.parseInt(f[2]));
                        break;
                    case AgentWire.TERM:
                        for (Process q : procs) {
                            q.destroy();
                        }
                        break;
                    case AgentWire.KILL:
                        for (Process q : procs) {
                            q.destroyForcibly();
                        }
                        break;
                    case AgentWire.END:
                        return 0;
                    default:
                        break;
                }
            }
            if (launcherGone) {
                control.abort(-1, JobControl.CODE_LAUNCHER_GONE);
                return 4;
            }
            long now = System.nanoTime();
            if (silenceNs > 0 && now - lastBeat >= Heartbeat.PERIOD_NS) {
                AgentWire.send(wire, AgentWire.ALIVE);
                lastBeat = now;
            }
            if (silenceNs > 0 && now - lastHeardNs > silenceNs) {
                System.err.println("hympj: agent of " + where + ": nothing from the launcher for "
                    + TimeUnit.NANOSECONDS.toMillis(silenceNs) / 1000.0 + " s (it died, hangs, or the link to it is cut): "
                    + "stopping this host's ranks and removing its files");
                control.abort(-1, JobControl.CODE_LAUNCHER_GONE);
                return 4;
            }
            if (running == 0 && control.aborted()) {
                idleSince = idleSince == 0 ? now : idleSince;
                if (now - idleSince > ORPHAN_NS) {
                    // a launcher that hears us sends END within moments of our last EXIT; this one is
                    // cut off (a cut link keeps ssh's connection open for as long as TCP lets it)
                    System.err.println("hympj: agent of " + where + ": the job was aborted, its ranks here ended and "
                        + "the launcher sent no END for " + ORPHAN_NS / 1_000_000_000L + " s (cut off?): removing this "
                        + "host's files and leaving");
                    return 4;
                }
            }
            try {
                Thread.sleep(WATCH_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 4;
            }
        }
    }

    /** Reads the launcher's commands; its end of the pipe closing means it is gone. */
    private void startReader() {
        Thread t = new Thread(() -> {
            try {
                String l;
                while ((l = AgentWire.read(in)) != null) {
                    lastHeardNs = System.nanoTime();
                    if (!l.equals(AgentWire.ALIVE)) {
                        commands.add(l);
                    }
                }
            } catch (IOException ignored) {
                // the launcher is gone
            }
            launcherGone = true;
        }, "hympj-agent-commands");
        t.setDaemon(true);
        t.start();
    }

    private void pump(int rank, InputStream stream, String verb) {
        Thread t = new Thread(() -> {
            try (BufferedReader br = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String l;
                while ((l = br.readLine()) != null) {
                    AgentWire.send(wire, verb + " " + rank + " " + l);
                }
            } catch (IOException ignored) {
                // the rank went away
            }
        }, "hympj-agent-out-" + rank);
        t.setDaemon(true);
        t.start();
        synchronized (pumps) {
            pumps.add(t);
        }
    }

    /** Lets the output pumps of a rank that ended pass on its last lines before its EXIT. */
    private void drain(int i) {
        List<Thread> mine = new ArrayList<>();
        synchronized (pumps) {
            for (Thread t : pumps) {
                if (t.getName().equals("hympj-agent-out-" + (first + i))) {
                    mine.add(t);
                }
            }
        }
        for (Thread t : mine) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops the ranks, closes the driver, removes the host's files; once. */
    private synchronized void cleanup() {
        if (stopping) {
            return;
        }
        stopping = true;
        Launcher.stop(procs);
        if (driver != null) {
            try {
                driver.close();
            } catch (RuntimeException ignored) {
                // the files go below anyway
            }
        }
        if (job != null) {
            job.delete();
            AgentWire.send(wire, AgentWire.DONE);
        }
    }

    static Properties decode(String base64) {
        Properties p = new Properties();
        try {
            p.load(new java.io.StringReader(new String(Base64.getDecoder().decode(base64.trim()), StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return p;
    }

    static String encode(Properties p) {
        java.io.StringWriter w = new java.io.StringWriter();
        try {
            p.store(w, null);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return Base64.getEncoder().encodeToString(w.toString().getBytes(StandardCharsets.UTF_8));
    }
}
