package org.hympj.shm.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.hympj.net.JobKey;
import org.hympj.net.NetSettings;
import org.hympj.net.Version;
import org.hympj.shm.job.HostLayout;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.job.JobControl;
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.pml.Idler;

/**
 * Runs a job on several hosts: one {@link HostAgent} per host (started by the launch agent,
 * or as a plain process for {@code --local-hosts}), each told the job, its part and the key;
 * once every host's endpoint is known every agent is told them all and starts its ranks. The
 * launcher then watches the job through the agents as {@link Launcher} watches ranks on one
 * host: the first failing rank (or a host whose agent ended, or a rank that lost a connection)
 * aborts the job on every host, whoever still runs after the grace period is terminated, then
 * killed; at the end every agent removes its host's files.
 */
final class MultiHostLauncher {
    /** How long the hosts have to create their files and start their drivers. */
    private static final long READY_TIMEOUT_MS = 60_000;

    private MultiHostLauncher() {
    }

    static JobResult run(LaunchSpec spec) throws IOException {
        if (!spec.model.equals("none")) {
            throw new IllegalArgumentException("a job on several hosts runs natively: --model " + spec.model
                + " emulates fabrics on one host (leave out --local-hosts / --hostfile)");
        }
        if (!spec.p2p.equals("twosided")) {
            throw new IllegalArgumentException("--p2p " + spec.p2p + " needs every rank on one host (shared files)");
        }
        if (!spec.route.equals("auto")) {
            throw new IllegalArgumentException("--route " + spec.route + " chooses an emulated fabric: one host only");
        }
        boolean oneMachine = spec.hostfile == null; // --local-hosts: every group on this machine, loopback between
        HostLayout layout = oneMachine ? HostLayout.split(spec.np, spec.localHosts)
            : Hostfile.read(spec.hostfile).layout(spec.np);
        JobConfig config = Launcher.config(spec, Launcher.newJobId());
        // a frame holds a record up to the inline limit and its header; over loopback frames are as large
        // as UDP takes (64 KiB), so a rendezvous streams 64 KiB pieces, not 1.4 KiB ones, and a message
        // that fits one frame goes eager
        int mtu = NetSettings.mtuFor(config.inlineLimit + 64);
        if (oneMachine) {
            mtu = Math.max(mtu, Math.min(NetSettings.LOOPBACK_MTU, spec.netTermBytes / 8));
        }
        if (spec.netMtu > 0) {
            mtu = spec.netMtu; // the user's: a message that does not fit one frame takes the rendezvous
        }
        if (oneMachine) {
            if (config.idle.equals("auto")) {
                // every rank and every group's media driver share this machine's cores, and a rank that
                // spins keeps a driver from its hop (8-byte ping-pong across 2 local hosts on 2 cores: 33 us
                // spinning first, 10.9 yielding at once)
                config = config.withIdle(Idler.auto(spec.np + (spec.driverInRank ? 0 : spec.localHosts),
                    Runtime.getRuntime().availableProcessors()));
            }
        }
        // the socket buffers hold the receiver's window (half a term): Aeron refuses a window above them
        NetSettings net = new NetSettings(mtu, spec.netTermBytes, Math.max(spec.netSocketBytes, spec.netTermBytes / 2),
            TimeUnit.MILLISECONDS.toNanos(spec.netLivenessMillis)).withDriverInRank(spec.driverInRank);
        Running running = new Running(spec, config, layout.withNet(net), JobKey.generate());
        Thread hook = new Thread(running::emergencyStop, "hympj-launcher-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return running.run();
        } finally {
            running.stopAgents();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down: the hook runs anyway
            }
        }
    }

    /**
     * The command that starts host {@code h}'s agent: {@code AGENT HOST java … HostAgent} for a
     * hostfile. ssh and rsh hand the remote command to the remote shell as one string (the words
     * joined by spaces), so for them it is one shell-quoted word: a class path with a space or a
     * {@code $} reaches the remote {@code java} as it is here. Any other agent ({@code ip netns exec},
     * a site's wrapper) gets the words as separate arguments.
     */
    static List<String> agentCommand(LaunchSpec spec, HostLayout layout, int h) {
        List<String> cmd = new ArrayList<>();
        List<String> agent = spec.hostfile != null ? Arrays.asList(spec.launchAgent.trim().split("\\s+")) : List.of();
        cmd.addAll(agent);
        if (spec.hostfile != null) {
            cmd.add(layout.name(h));
        }
        List<String> remote = new ArrayList<>(Launcher.helperJvm(spec.hostfile != null ? "java" : Launcher.javaCommand()));
        remote.add(HostAgent.class.getName());
        if (!agent.isEmpty() && ShellWords.isRemoteShell(agent.get(0))) {
            cmd.add(ShellWords.join(remote));
        } else {
            cmd.addAll(remote);
        }
        return cmd;
    }

    /** The address host {@code h}'s endpoint binds: --iface, else loopback for local hosts, else the host's name. */
    static String iface(LaunchSpec spec, HostLayout layout, int h) {
        if (spec.iface != null) {
            return spec.iface;
        }
        return spec.hostfile == null ? "127.0.0.1" : layout.name(h);
    }

    /** One job while it runs. */
    private static final class Running {
        private final LaunchSpec spec;
        private final JobConfig config;
        private final HostLayout layout;
        private final JobKey key;
        private final BlockingQueue<AgentLink.Event> events = new LinkedBlockingQueue<>();
        private final AgentLink[] links;
        private final boolean[] agentEnded;
        /** Hosts that stopped answering after the job was aborted ({@link #giveUpOnSilentHosts}). */
        private final boolean[] unreachable;
        private final StringBuilder[] outputs;
        private volatile boolean stopping;

        Running(LaunchSpec spec, JobConfig config, HostLayout layout, JobKey key) {
            this.spec = spec;
            this.config = config;
            this.layout = layout;
            this.key = key;
            this.links = new AgentLink[layout.hosts()];
            this.agentEnded = new boolean[layout.hosts()];
            this.unreachable = new boolean[layout.hosts()];
            this.outputs = new StringBuilder[spec.np];
            for (int r = 0; r < spec.np; r++) {
                outputs[r] = new StringBuilder();
            }
        }

        JobResult run() throws IOException {
            long t0 = System.nanoTime();
            for (int h = 0; h < links.length; h++) {
                links[h] = AgentLink.start(h, layout.name(h), agentCommand(spec, layout, h), events);
                links[h].send(AgentWire.JOB + " " + HostAgent.encode(job(h)));
            }
            String[] endpoints = awaitReady();
            HostLayout all = layout.withEndpoints(endpoints);
            for (AgentLink l : links) {
                l.send(AgentWire.HOSTS + " " + all.text());
            }
            return watch(t0);
        }

        private Properties job(int h) {
            Properties p = new Properties();
            p.setProperty("version", Version.get());
            p.setProperty("host", Integer.toString(h));
            p.setProperty("config", config.text());
            p.setProperty("layout", layout.text());
            p.setProperty("key", key.hex());
            p.setProperty("ranks", spec.rankText());
            p.setProperty("iface", iface(spec, layout, h));
            p.setProperty("port", Integer.toString(spec.netPort));
            p.setProperty("driver.idle", spec.driverIdle);
            p.setProperty("workdir", System.getProperty("user.dir"));
            p.setProperty("heartbeat", Boolean.toString(spec.hostfile != null));
            return p;
        }

        /** Every host's endpoint, once all are ready; a host that fails or stays silent ends the job here. */
        private String[] awaitReady() throws IOException {
            String[] endpoints = new String[links.length];
            int ready = 0;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
            while (ready < links.length) {
                AgentLink.Event e;
                try {
                    e = events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new IOException("launcher interrupted while the hosts started");
                }
                if (e == null) {
                    List<String> silent = new ArrayList<>();
                    for (int h = 0; h < links.length; h++) {
                        if (endpoints[h] == null) {
                            silent.add(layout.name(h));
                        }
                    }
                    throw new IOException("host" + (silent.size() > 1 ? "s " : " ") + String.join(", ", silent)
                        + " did not start within " + READY_TIMEOUT_MS / 1000 + " s (unreachable, or the launch agent '"
                        + spec.launchAgent + "' hangs)");
                }
                String name = layout.name(e.host);
                if (e.line == null) {
                    agentEnded[e.host] = true;
                    String err = links[e.host].stderrAfterEnd();
                    throw new IOException("host " + name + ": its agent ended before it was ready"
                        + (err.isEmpty() ? "" : ": " + err));
                }
                String verb = AgentWire.verb(e.line);
                if (verb.equals(AgentWire.READY)) {
                    endpoints[e.host] = AgentWire.split(e.line, 2)[1];
                    ready++;
                } else if (verb.equals(AgentWire.FAIL)) {
                    String msg = AgentWire.split(e.line, 2)[1];
                    throw new IOException(msg.contains(name) ? msg : "host " + name + ": " + msg);
                }
            }
            return endpoints;
        }

        private JobResult watch(long t0) {
            RankWatch w = new RankWatch(spec, t0);
            boolean beat = spec.hostfile != null;
            long silence = Heartbeat.silenceNs(TimeUnit.MILLISECONDS.toNanos(spec.netLivenessMillis));
            long lastBeat = System.nanoTime();
            while (w.running() > 0) {
                AgentLink.Event e;
                try {
                    e = events.poll(5, TimeUnit.MILLISECONDS);
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("launcher interrupted; job stopped");
                }
                // at most 1,000 lines before the beat and the timers: ranks that print without pause
                // must not keep the heartbeat from the agents
                for (int n = 0; e != null; e = ++n < 1000 ? events.poll() : null) {
                    handle(e, w);
                }
                long now = System.nanoTime();
                if (beat && now - lastBeat >= Heartbeat.PERIOD_NS) {
                    broadcast(AgentWire.ALIVE);
                    lastBeat = now;
                }
                if (beat) {
                    for (int h = 0; h < links.length; h++) {
                        if (!agentEnded[h] && !unreachable[h] && links[h].silentFor(now) > silence) {
                            hostSilent(h, silence, w);
                        }
                    }
                }
                if (w.timedOut(now)) {
                    broadcast(AgentWire.ABORT + " -1 " + JobResult.TIMEOUT_EXIT);
                }
                RankWatch.Signal sig = w.signal(now);
                if (sig != RankWatch.Signal.NONE) {
                    broadcast(sig == RankWatch.Signal.TERM ? AgentWire.TERM : AgentWire.KILL);
                }
                if (w.unanswered(now)) {
                    giveUpOnSilentHosts(w);
                }
            }
            List<String> out = new ArrayList<>();
            for (StringBuilder b : outputs) {
                synchronized (b) {
                    out.add(b.toString());
                }
            }
            return w.result(out, jobDirs());
        }

        /**
         * The job was aborted and some hosts did not report their ranks' ends even after KILL: their
         * link to this launcher is cut or they hang. Waiting longer would hang the launcher as long
         * as the launch agent's connection lives (ssh: until TCP gives up, many minutes). Those ranks
         * are counted as lost; on such a host the ranks fail by themselves once they hear nothing
         * from the other hosts (--net-timeout), and its agent removes its files when they end.
         */
        private void giveUpOnSilentHosts(RankWatch w) {
            List<String> silent = new ArrayList<>();
            for (int h = 0; h < layout.hosts(); h++) {
                if (loseRunningRanks(h, w)[1] > 0) {
                    silent.add(layout.name(h));
                    unreachable[h] = true;
                }
            }
            w.note("; host" + (silent.size() > 1 ? "s " : " ") + String.join(", ", silent) + " did not answer "
                + RankWatch.UNANSWERED_NS / 1_000_000_000L + " s after the ranks were killed (cut off or hung): its ranks end"
                + " by themselves once they lose the other hosts (--net-timeout), its agent then removes its files");
        }

        /** Counts host {@code h}'s ranks still running as lost: {first of them, how many} ({-1, 0}: none). */
        private int[] loseRunningRanks(int h, RankWatch w) {
            int lost = 0;
            int firstLost = -1;
            for (int r = layout.firstRank(h); r < layout.firstRank(h) + layout.rankCount(h); r++) {
                if (!w.ended(r)) {
                    w.lost(r);
                    lost++;
                    firstLost = firstLost < 0 ? r : firstLost;
                }
            }
            return new int[] {firstLost, lost};
        }

        /** "rank 4" or "ranks 4..7". */
        private static String ranks(int[] lost) {
            return "rank" + (lost[1] > 1 ? "s " + lost[0] + ".." + (lost[0] + lost[1] - 1) : " " + lost[0]);
        }

        /**
         * Host {@code h}'s agent wrote nothing, not even its heartbeat, for {@code silence}: the host
         * died, hangs, or the link to it is cut. Its running ranks count as lost and the job is
         * aborted naming the first; nothing more is expected from it.
         */
        private void hostSilent(int h, long silence, RankWatch w) {
            unreachable[h] = true;
            int[] lost = loseRunningRanks(h, w);
            String why = "host " + layout.name(h) + " went silent: nothing from its agent for "
                + TimeUnit.NANOSECONDS.toMillis(silence) / 1000.0 + " s (it died, hangs, or the link to it is cut)";
            if (lost[1] > 0 && w.failed(lost[0], 1, why + " with " + ranks(lost) + " running; job aborted")) {
                broadcast(AgentWire.ABORT + " " + lost[0] + " " + JobControl.CODE_CONNECTION_LOST);
            } else if (lost[1] > 0) {
                w.note("; " + why);
            }
        }

        /** One line of an agent (or its end): output, a rank's exit, an abort on its host, a dead host. */
        private void handle(AgentLink.Event e, RankWatch w) {
            String host = layout.name(e.host);
            if (e.line == null) {
                agentEnded[e.host] = true;
                int[] lost = loseRunningRanks(e.host, w);
                String err = links[e.host].stderr();
                if (lost[1] > 0 && w.failed(lost[0], 1, "host " + host + " stopped (its agent ended) with " + ranks(lost)
                    + " running; job aborted" + (err.isEmpty() ? "" : " (" + err + ")"))) {
                    broadcast(AgentWire.ABORT + " " + lost[0] + " " + JobControl.CODE_CONNECTION_LOST);
                }
                return;
            }
            String[] f = AgentWire.split(e.line, 4);
            switch (f[0]) {
                case AgentWire.OUT:
                case AgentWire.ERR:
                    output(Integer.parseInt(f[1]), e.line.substring(f[0].length() + f[1].length() + 2),
                        f[0].equals(AgentWire.ERR));
                    break;
                case AgentWire.EXIT: {
                    int r = Integer.parseInt(f[1]);
                    int code = Integer.parseInt(f[2]);
                    int state = Integer.parseInt(f[3]);
                    Integer abort = w.exited(r, code, state, " (on " + host + ")");
                    if (abort != null) {
                        broadcast(AgentWire.ABORT + " " + r + " " + abort);
                    } else if (code == 0 && state == JobControl.STATE_FINALIZED) {
                        broadcast(AgentWire.MIRROR + " " + r + " " + JobControl.STATE_FINALIZED);
                    }
                    break;
                }
                case AgentWire.ABORTED: {
                    int r = Integer.parseInt(f[1]);
                    int code = Integer.parseInt(f[2]);
                    if (r >= 0 && w.failed(r, 1, "rank " + r + " failed (" + describeAbort(code) + ", seen on host "
                        + host + "); job aborted")) {
                        broadcast(AgentWire.ABORT + " " + r + " " + code);
                    }
                    break;
                }
                default:
                    break;
            }
        }

        private static String describeAbort(int code) {
            if (code == JobControl.CODE_CONNECTION_LOST) {
                return "a peer lost its network connection from it";
            }
            return "code " + code;
        }

        /** The host directories on this machine (those of local hosts; a remote host's are its own). */
        private List<Path> jobDirs() {
            List<Path> dirs = new ArrayList<>();
            for (int h = 0; h < layout.hosts(); h++) {
                dirs.add(JobDirectory.root().resolve(JobDirectory.PREFIX + config.jobId + (layout.multiHost() ? "-" + h : "")));
            }
            return dirs;
        }

        private void output(int rank, String line, boolean err) {
            if (rank < 0 || rank >= outputs.length) {
                return;
            }
            LaunchSpec.Output mode = spec.output;
            if (mode == LaunchSpec.Output.CAPTURE || mode == LaunchSpec.Output.CAPTURE_AND_TAG) {
                synchronized (outputs[rank]) {
                    outputs[rank].append(line).append('\n');
                }
            }
            PrintStream to = err ? System.err : System.out;
            if (mode == LaunchSpec.Output.INHERIT) {
                to.println(line);
            } else if (mode != LaunchSpec.Output.CAPTURE) {
                to.println("[" + rank + "] " + line);
            }
        }

        private void broadcast(String line) {
            for (int h = 0; h < links.length; h++) {
                if (links[h] != null && !agentEnded[h]) {
                    links[h].send(line);
                }
            }
        }

        /** Tells every agent the job is over and waits for them to remove their files. */
        void stopAgents() {
            boolean[] died = agentEnded.clone(); // ended before END: the host died
            broadcast(AgentWire.END);
            for (int h = 0; h < links.length; h++) {
                if (links[h] != null && unreachable[h]) {
                    links[h].abandon(); // it would not answer END either
                } else if (links[h] != null) {
                    links[h].stop(10_000);
                }
            }
            if (spec.hostfile == null) {
                removeDeadHostFiles(died);
            }
        }

        /**
         * The directories of local hosts whose agent died (nobody else removes them): once no
         * rank registered there runs (a rank halts within a second of its agent's death).
         */
        private void removeDeadHostFiles(boolean[] died) {
            List<Path> dirs = jobDirs();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            for (int h = 0; h < dirs.size(); h++) {
                Path d = dirs.get(h);
                if (!died[h] || !java.nio.file.Files.exists(d)) {
                    continue;
                }
                while (System.nanoTime() - until < 0 && ranksRunIn(d)) {
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                JobDirectory.deleteTree(d);
            }
        }

        private boolean ranksRunIn(Path dir) {
            try (JobControl c = JobDirectory.open(dir).openControl()) {
                return !c.liveRanks().isEmpty();
            } catch (IOException | RuntimeException e) {
                return false; // half-built or half-removed: nothing registered runs there
            }
        }

        /** Shutdown hook: SIGINT/SIGTERM to the launcher ends every host's ranks and files. */
        void emergencyStop() {
            if (stopping) {
                return;
            }
            stopping = true;
            for (AgentLink l : links) {
                if (l != null) {
                    l.kill();
                }
            }
        }
    }
}
