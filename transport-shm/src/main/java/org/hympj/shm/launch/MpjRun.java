package org.hympj.shm.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hympj.shm.job.JobDirectory;

/**
 * {@code bin/mpjrun}: starts a job of N ranks and exits with its result.
 *
 * <pre>
 * mpjrun -np N [--subcluster S] [--model none] [--timeout SEC] [--tag-output] [-cp CP] [--bulk-size B] [--inline-limit B]
 *        [--segment-size BYTES] [--ring-size BYTES] [--eager-limit BYTES] [--idle auto|spin|yield|backoff] [--jit auto|c1|tiered|steady] [--warm-up on|off]
 *        MAIN [args…]
 * mpjrun --clean
 * </pre>
 */
public final class MpjRun {
    private MpjRun() {
    }

    static final String USAGE = String.join("\n",
        "usage: mpjrun -np N [options] MAIN [args...]",
        "       mpjrun --clean            remove job directories whose launcher and ranks are gone",
        "options:",
        "  -np N                 number of ranks (JVMs), required",
        "  -cp, --classpath CP   class path of the application, added to HyMPJ's own",
        "  --subcluster S        TCA subcluster size (ranks 0..S-1, S..2S-1, ...); default: all ranks",
        "  --model M             timing model: none (native shared memory, default), ha-pacs, tofu, or a properties file",
        "  --route R             fabric per message: auto (default: native without a model, hybrid with one),",
        "                        hybrid (by size and layout, see --show-route-table), tca (an error outside",
        "                        the subcluster), ib",
        "  --route-table T       the hybrid router's thresholds: a preset (ha-pacs) or a file (bin/hympj-bench calibrate)",
        "  --stripe BYTES|off    split contiguous messages from BYTES over both fabrics (default: the table's)",
        "  --route-stats         print every rank's route decisions at finalize",
        "  --sched POLICY        RSched for persistent TCA puts under a model: none (default), rr:1|2|4,",
        "                        bl:1|2|4, bl+, bl+oh (S3); rndv = S3's eager/rendezvous baseline: no scheduler,",
        "                        and a rendezvous's RTS and CTS cost a control put each on the model (none: free);",
        "                        --sched-barrier adds S3's pseudo-collective barriers",
        "  --p2p ENGINE          point-to-point engine: twosided (default) or onesided (S2: one-sided writes,",
        "                        address notify buffers and a polling thread; no ANY_SOURCE, no probe)",
        "  --show-route-table    print the route table (of --route-table, or of --model) and exit",
        "  --clock virtual|wall  under a model: virtual (default) = each rank keeps modelled time (the model's",
        "                        transfers and its own CPU time), nothing waits in real time, answers do not",
        "                        depend on load; wall = modelled durations waited out in real time x --time-dilation",
        "  --compute-scale F     virtual clock: CPU time between library calls counts F times (default 1; 0 =",
        "                        communication only)",
        "  --time-dilation D     --clock wall: modelled durations last D times longer in real time (default: from",
        "                        ranks and cores)",
        "  --timeout SEC         kill the job after SEC seconds (exit code 124); default: none",
        "  --tag-output          prefix every output line with [rank]",
        "  --segment-size BYTES  registered shared segment per rank (k/m/g suffixes); default 64m",
        "  --ring-size BYTES     packet ring per ordered rank pair, a power of two; default 256k",
        "  --bulk-size BYTES     bulk region per ordered rank pair, a power of two; default 2m (512k above 16 ranks)",
        "  --inline-limit BYTES  largest message copied into the packet ring itself; default 8k",
        "  --eager-limit BYTES   largest message sent without handshake (via bulk); default bulk size/8",
        "  --idle POLICY         how waiting ranks idle: auto (default), spin, yield, backoff, or",
        "                        backoff:SPINS:YIELDS:MIN_PARK_NS:MAX_PARK_NS or plain:... (the same, spinning",
        "                        without the PAUSE hint): for measuring waits",
        "  --bind-to none|core   core: rank r runs only on the r-th CPU this launcher may use (modulo their",
        "                        number; util-linux taskset), as Open MPI's --bind-to core; none (default)",
        "  --jit auto|c1|tiered|steady  the ranks' JIT compiler: c1 only; C1 then C2 (tiered); or tiered",
        "                        without speculative traps, the warm-up waiting up to 12 s for the compilers",
        "                        (steady: long runs of ranks sharing cores); auto (default): c1 when",
        "                        ranks > cores (compiler threads would compete with the ranks), else tiered",
        "  --warm-up on|off      on (default): before the program starts, the ranks run the message paths with",
        "                        their ring neighbours until the JIT has compiled them (native jobs; at most",
        "                        2 s, 12 s under --jit steady)",
        "  --coll CHOICES        collective algorithms, e.g. barrier=ring (ring, rd, dissemination)",
        "  --jvm-arg ARG         extra JVM argument for every rank (repeatable)",
        "  --local-hosts K       split the ranks into K groups on this machine, as if on K hosts: each group its",
        "                        own job directory and media driver, messages between groups only over the",
        "                        network transport (Aeron UDP) on the loopback interface",
        "  --hostfile F          run on the hosts of F (lines 'HOST slots=N', as Open MPI's): ranks fill the",
        "                        hosts in order; each host's part is started by the launch agent",
        "  --launch-agent CMD    how a host's part is started there: CMD HOST java ... (default: ssh)",
        "  --iface ADDR          the address each host's network endpoint binds (default: 127.0.0.1 with",
        "                        --local-hosts, else the host's name as the hostfile gives it)",
        "  --net-port P          the UDP port of each host's endpoint (default: a free one)",
        "  --net-mtu B           UDP payload of one network frame, 1408..65504 (default: holds the inline",
        "                        limit's message; 64k between --local-hosts); 1408 avoids IP fragments on 1500-byte Ethernet",
        "  --net-term-size B     Aeron term length of each connection between hosts (default 1m)",
        "  --net-timeout SEC     a peer on another host silent for SEC seconds is lost (default 10; a dead rank",
        "                        or host is reported by its agent within milliseconds anyway)",
        "  --net-driver-idle P   how each host's media driver idles, as --idle (default " + LaunchSpec.DEFAULT_DRIVER_IDLE + ")",
        "  --net-driver WHERE    rank: each host's first rank runs the host's media driver in its progress loop, a",
        "                        guard thread while it computes (default); agent: a thread of the host agent",
        "  -x NAME               pass the launcher's environment variable NAME to the ranks on every host",
        "  --trace DIR           journal every rank's events (posts, puts with engines and modelled times,",
        "                        completions, waits) to DIR/rank-<r>/ (Chronicle Queues; DIR is created,",
        "                        an earlier job's journals in it are replaced); read with bin/hympj-trace DIR",
        "exit code: 0 when every rank exits 0; else the first failing rank's code (124 on timeout,",
        "125 when a rank exited 0 without finalizing); 1 when the job could not start, 2 for bad options");

    public static void main(String[] argv) {
        int code;
        try {
            code = run(argv);
        } catch (IllegalArgumentException e) {
            System.err.println("mpjrun: " + e.getMessage());
            System.err.println(USAGE);
            code = 2;
        } catch (IOException e) {
            System.err.println("mpjrun: " + e.getMessage());
            code = 1;
        }
        System.exit(code);
    }

    static int run(String[] argv) throws IOException {
        LaunchSpec spec = new LaunchSpec();
        String userCp = null;
        String hympjCp = System.getProperty("java.class.path");
        boolean npGiven = false;
        boolean showTable = false;
        int i = 0;
        for (; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("-")) {
                break;
            }
            switch (a) {
                case "-h":
                case "--help":
                    System.out.println(USAGE);
                    return 0;
                case "--clean":
                    return clean();
                case "-np":
                case "-n":
                    spec.np(parseInt(a, value(argv, ++i, a)));
                    npGiven = true;
                    break;
                case "-cp":
                case "--classpath":
                    userCp = value(argv, ++i, a);
                    break;
                case "--subcluster":
                    spec.subcluster(parseInt(a, value(argv, ++i, a)));
                    break;
                case "--model":
                    spec.model(value(argv, ++i, a));
                    break;
                case "--timeout": {
                    int sec = parseInt(a, value(argv, ++i, a));
                    if (sec <= 0) {
                        throw new IllegalArgumentException("--timeout must be a positive number of seconds, was " + sec
                            + " (leave it out for no timeout)");
                    }
                    spec.timeout(Duration.ofSeconds(sec));
                    break;
                }
                case "--tag-output":
                    spec.output(LaunchSpec.Output.TAG);
                    break;
                case "--segment-size":
                    spec.segmentBytes(parseBytes(a, value(argv, ++i, a)));
                    break;
                case "--ring-size":
                    spec.ringBytes(parseIntBytes(a, value(argv, ++i, a)));
                    break;
                case "--bulk-size":
                    spec.bulkBytes(parseIntBytes(a, value(argv, ++i, a)));
                    break;
                case "--inline-limit":
                    spec.inlineLimit(parseIntBytes(a, value(argv, ++i, a)));
                    break;
                case "--eager-limit":
                    spec.eagerLimit(parseIntBytes(a, value(argv, ++i, a)));
                    break;
                case "--route":
                    spec.route(value(argv, ++i, a));
                    break;
                case "--clock":
                    spec.clock(value(argv, ++i, a));
                    break;
                case "--compute-scale":
                    try {
                        spec.computeScale(Double.parseDouble(value(argv, i + 1, a)));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(a + " expects a number, got '" + argv[i + 1] + "'");
                    }
                    i++;
                    break;
                case "--time-dilation":
                    try {
                        spec.timeDilation(Double.parseDouble(value(argv, i + 1, a)));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(a + " expects a number, got '" + argv[i + 1] + "'");
                    }
                    i++;
                    break;
                case "--route-table":
                    spec.routeTable(value(argv, ++i, a));
                    break;
                case "--stripe": {
                    String v = value(argv, ++i, a);
                    spec.stripe(v.equals("off") ? 0 : parseBytes(a, v));
                    break;
                }
                case "--sched":
                    spec.sched(value(argv, ++i, a));
                    break;
                case "--sched-barrier":
                    spec.schedBarrier(true);
                    break;
                case "--p2p":
                    spec.p2p(value(argv, ++i, a));
                    break;
                case "--route-stats":
                    spec.routeStats(true);
                    break;
                case "--show-route-table":
                    showTable = true;
                    break;
                case "--coll":
                    spec.coll(value(argv, ++i, a));
                    break;
                case "--idle":
                    spec.idle(value(argv, ++i, a));
                    break;
                case "--jit":
                    spec.jit(value(argv, ++i, a));
                    break;
                case "--warm-up":
                    spec.warmUp(value(argv, ++i, a));
                    break;
                case "--bind-to":
                    spec.bindTo(value(argv, ++i, a));
                    break;
                case "--jvm-arg":
                    spec.jvmArg(value(argv, ++i, a));
                    break;
                case "--trace":
                    spec.trace(java.nio.file.Paths.get(value(argv, ++i, a)));
                    break;
                case "--local-hosts":
                    spec.localHosts(parseInt(a, value(argv, ++i, a)));
                    break;
                case "--hostfile":
                    spec.hostfile(java.nio.file.Paths.get(value(argv, ++i, a)));
                    break;
                case "--launch-agent":
                    spec.launchAgent(value(argv, ++i, a));
                    break;
                case "--iface":
                    spec.iface(value(argv, ++i, a));
                    break;
                case "--net-port":
                    spec.netPort(parseInt(a, value(argv, ++i, a)));
                    break;
                case "--net-mtu":
                    spec.netMtu(parseIntBytes(a, value(argv, ++i, a)));
                    break;
                case "--net-term-size":
                    spec.netTermBytes(parseIntBytes(a, value(argv, ++i, a)));
                    break;
                case "--net-timeout": {
                    int sec = parseInt(a, value(argv, ++i, a));
                    if (sec <= 0) {
                        throw new IllegalArgumentException("--net-timeout must be a positive number of seconds, was " + sec);
                    }
                    spec.netTimeout(Duration.ofSeconds(sec));
                    break;
                }
                case "--net-driver":
                    spec.netDriver(value(argv, ++i, a));
                    break;
                case "--net-driver-idle":
                    spec.driverIdle(value(argv, ++i, a));
                    break;
                case "-x":
                    spec.export(value(argv, ++i, a));
                    break;
                default:
                    throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (showTable) {
            String name = !spec.routeTable.isEmpty() ? spec.routeTable
                : org.hympj.router.RouteTable.class.getResource(spec.model + ".route") != null ? spec.model : "ha-pacs";
            org.hympj.router.RouteTable t = org.hympj.router.RouteTable.load(name);
            if (spec.stripe >= 0) {
                t = t.withStripeThreshold(spec.stripe);
            }
            System.out.print(t.describe());
            return 0;
        }
        if (!npGiven) {
            throw new IllegalArgumentException("-np N is required");
        }
        if (i >= argv.length) {
            throw new IllegalArgumentException("no main class given");
        }
        if (spec.localHosts > spec.np) {
            throw new IllegalArgumentException("--local-hosts must be 1.." + spec.np + " (at least one rank per host), was "
                + spec.localHosts);
        }
        if (spec.localHosts > 1 && spec.hostfile != null) {
            throw new IllegalArgumentException("--local-hosts and --hostfile exclude each other");
        }
        if (spec.subcluster < 0 || spec.subcluster > spec.np) {
            throw new IllegalArgumentException("--subcluster must be 1.." + spec.np + ", was " + spec.subcluster);
        }
        spec.main(argv[i]);
        List<String> rest = new ArrayList<>();
        for (int k = i + 1; k < argv.length; k++) {
            rest.add(argv[k]);
        }
        spec.args(rest);
        spec.classpath(userCp == null ? hympjCp : hympjCp + java.io.File.pathSeparator + userCp);
        JobResult r = Launcher.run(spec);
        if (!r.ok()) {
            System.err.println("mpjrun: " + r.message());
        }
        return r.exitCode();
    }

    private static int clean() throws IOException {
        int removed = 0;
        int kept = 0;
        for (JobDirectory.Verdict v : JobDirectory.survey()) {
            if (v.stale) {
                JobDirectory.deleteTree(v.dir);
                System.out.println("removed " + v.dir);
                removed++;
            } else {
                System.out.println("kept " + v.dir + ": " + v.reason);
                kept++;
            }
        }
        System.out.println("mpjrun --clean: " + removed + " stale job director" + (removed == 1 ? "y" : "ies")
            + " removed, " + kept + " kept");
        return 0;
    }

    private static String value(String[] argv, int i, String opt) {
        if (i >= argv.length) {
            throw new IllegalArgumentException(opt + " needs a value");
        }
        return argv[i];
    }

    private static int parseInt(String opt, String v) {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(opt + " expects a whole number, got '" + v + "'");
        }
    }

    /** A size that must fit in an int (ring and bulk sizes, limits): at most 1g. */
    static int parseIntBytes(String opt, String v) {
        long b = parseBytes(opt, v);
        if (b > (1L << 30)) {
            throw new IllegalArgumentException(opt + " must be at most 1g, got '" + v + "'");
        }
        return (int) b;
    }

    static long parseBytes(String opt, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        long mul = 1;
        if (s.endsWith("k")) {
            mul = 1L << 10;
        } else if (s.endsWith("m")) {
            mul = 1L << 20;
        } else if (s.endsWith("g")) {
            mul = 1L << 30;
        }
        if (mul != 1) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            long n = Long.parseLong(s);
            if (n < 0) {
                throw new IllegalArgumentException(opt + " must not be negative, got '" + v + "'");
            }
            return Math.multiplyExact(n, mul);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(opt + " is too large: '" + v + "'");
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(opt + " expects a size like 65536, 64k or 16m, got '" + v + "'");
        }
    }
}
