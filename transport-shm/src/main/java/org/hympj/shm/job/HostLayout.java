package org.hympj.shm.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import org.hympj.net.NetSettings;

/**
 * Where a job's ranks run: its hosts in order, each with a block of consecutive ranks (as Open
 * MPI maps by slot) and, once its media driver is up, the {@code address:port} it receives on;
 * and which host a job directory belongs to. A job on one host has one host holding every rank
 * and needs no network. In a host's job directory as {@code job.hosts}.
 *
 * <p>Ranks of one host talk through that host's shared memory; ranks of different hosts through
 * the network transport (transport-net), between the hosts' endpoints.
 */
public final class HostLayout {
    /** Name of the file in a job directory. */
    public static final String FILE = "job.hosts";

    private final String[] names;
    private final int[] first;
    private final int[] count;
    private final String[] endpoints;
    private final int host;
    private final int size;
    /** World rank → host index. */
    private final int[] hostOf;
    /** The network's settings (null on one host). */
    private final NetSettings net;

    private HostLayout(String[] names, int[] first, int[] count, String[] endpoints, int host, NetSettings net) {
        this.net = net;
        this.names = names;
        this.first = first;
        this.count = count;
        this.endpoints = endpoints;
        this.host = host;
        int n = 0;
        for (int h = 0; h < names.length; h++) {
            if (first[h] != n || count[h] < 1) {
                throw new IllegalArgumentException("host " + names[h] + " must hold a block of at least one rank "
                    + "starting at " + n + ", was " + count[h] + " from " + first[h]);
            }
            n += count[h];
        }
        if (host < 0 || host >= names.length) {
            throw new IllegalArgumentException("host index " + host + " outside 0.." + (names.length - 1));
        }
        this.size = n;
        this.hostOf = new int[n];
        for (int h = 0; h < names.length; h++) {
            Arrays.fill(hostOf, first[h], first[h] + count[h], h);
        }
    }

    /** Every rank on one host. */
    public static HostLayout single(int size) {
        return new HostLayout(new String[] {"localhost"}, new int[] {0}, new int[] {size}, new String[] {null}, 0, null);
    }

    /**
     * {@code ranks[h]} consecutive ranks on host {@code h} (named {@code names[h]}), in host order;
     * endpoints unknown yet; seen from host 0.
     */
    public static HostLayout blocks(List<String> names, int[] ranks) {
        if (names.size() != ranks.length || ranks.length == 0) {
            throw new IllegalArgumentException("one rank count per host expected");
        }
        int[] first = new int[ranks.length];
        for (int h = 1; h < ranks.length; h++) {
            first[h] = first[h - 1] + ranks[h - 1];
        }
        return new HostLayout(names.toArray(new String[0]), first, ranks.clone(), new String[ranks.length], 0, null);
    }

    /**
     * {@code size} ranks split as evenly as possible into {@code hosts} blocks (the first ones one
     * rank larger), named {@code group-0}, …: the local hosts of {@code --local-hosts}.
     */
    public static HostLayout split(int size, int hosts) {
        if (hosts < 1 || hosts > size) {
            throw new IllegalArgumentException("--local-hosts must be 1.." + size + " (at least one rank per host), was "
                + hosts);
        }
        List<String> names = new ArrayList<>();
        int[] ranks = new int[hosts];
        for (int h = 0; h < hosts; h++) {
            names.add("group-" + h);
            ranks[h] = size / hosts + (h < size % hosts ? 1 : 0);
        }
        return blocks(names, ranks);
    }

    /** The same layout as seen from host {@code h} (the job directory of that host). */
    public HostLayout on(int h) {
        return new HostLayout(names, first, count, endpoints, h, net);
    }

    /** The same layout with every host's endpoint known. */
    public HostLayout withEndpoints(String[] eps) {
        if (eps.length != names.length) {
            throw new IllegalArgumentException("one endpoint per host expected");
        }
        return new HostLayout(names, first, count, eps.clone(), host, net);
    }

    /** The same layout with the network's settings. */
    public HostLayout withNet(NetSettings settings) {
        return new HostLayout(names, first, count, endpoints, host, settings);
    }

    /** The network's settings (null for a job on one host). */
    public NetSettings net() {
        return net;
    }

    public int hosts() {
        return names.length;
    }

    public int size() {
        return size;
    }

    /** True when the job spans more than one host (it needs the network transport). */
    public boolean multiHost() {
        return names.length > 1;
    }

    /** The host of this job directory. */
    public int host() {
        return host;
    }

    public String name(int h) {
        return names[h];
    }

    public int firstRank(int h) {
        return first[h];
    }

    public int rankCount(int h) {
        return count[h];
    }

    public int hostOf(int rank) {
        return hostOf[rank];
    }

    /** True when {@code rank} runs on this directory's host. */
    public boolean local(int rank) {
        return hostOf[rank] == host;
    }

    /** Ranks on this host. */
    public int localCount() {
        return count[host];
    }

    /** The index of a rank of this host among the host's ranks (its slot in the shared files). */
    public int localIndex(int rank) {
        if (!local(rank)) {
            throw new IllegalArgumentException("rank " + rank + " is not on host " + names[host]);
        }
        return rank - first[host];
    }

    /** The world rank of the host's {@code i}-th rank. */
    public int localRank(int i) {
        return first[host] + i;
    }

    /** Host {@code h}'s network endpoint (null until its driver is up, and for a single host). */
    public String endpoint(int h) {
        return endpoints[h];
    }

    /** Per rank, its host's endpoint. */
    public String[] endpointsByRank() {
        String[] out = new String[size];
        for (int r = 0; r < size; r++) {
            out[r] = endpoints[hostOf[r]];
        }
        return out;
    }

    /** "group-0 (ranks 0-3), group-1 (ranks 4-7)". */
    public String describe() {
        StringBuilder b = new StringBuilder();
        for (int h = 0; h < names.length; h++) {
            b.append(h == 0 ? "" : ", ").append(names[h]).append(" (rank").append(count[h] == 1 ? " " + first[h]
                : "s " + first[h] + "-" + (first[h] + count[h] - 1)).append(')');
        }
        return b.toString();
    }

    private Properties properties() {
        Properties p = new Properties();
        p.setProperty("hosts", Integer.toString(names.length));
        p.setProperty("host", Integer.toString(host));
        for (int h = 0; h < names.length; h++) {
            p.setProperty("h" + h + ".name", names[h]);
            p.setProperty("h" + h + ".first", Integer.toString(first[h]));
            p.setProperty("h" + h + ".count", Integer.toString(count[h]));
            if (endpoints[h] != null) {
                p.setProperty("h" + h + ".endpoint", endpoints[h]);
            }
        }
        if (net != null) {
            p.setProperty("net.mtu", Integer.toString(net.mtu));
            p.setProperty("net.term", Integer.toString(net.termLength));
            p.setProperty("net.socket", Integer.toString(net.socketBuffer));
            p.setProperty("net.liveness.ns", Long.toString(net.livenessNs));
            p.setProperty("net.driver", net.driverInRank ? "rank" : "agent");
        }
        return p;
    }

    private static HostLayout of(Properties p) {
        int n = Integer.parseInt(p.getProperty("hosts"));
        String[] names = new String[n];
        int[] first = new int[n];
        int[] count = new int[n];
        String[] eps = new String[n];
        for (int h = 0; h < n; h++) {
            names[h] = p.getProperty("h" + h + ".name");
            first[h] = Integer.parseInt(p.getProperty("h" + h + ".first"));
            count[h] = Integer.parseInt(p.getProperty("h" + h + ".count"));
            eps[h] = p.getProperty("h" + h + ".endpoint");
        }
        NetSettings net = p.getProperty("net.mtu") == null ? null : new NetSettings(
            Integer.parseInt(p.getProperty("net.mtu")), Integer.parseInt(p.getProperty("net.term")),
            Integer.parseInt(p.getProperty("net.socket")), Long.parseLong(p.getProperty("net.liveness.ns")))
            .withDriverInRank("rank".equals(p.getProperty("net.driver")));
        return new HostLayout(names, first, count, eps, Integer.parseInt(p.getProperty("host")), net);
    }

    /** Writes {@link #FILE} (the caller publishes it by a rename). */
    public void store(Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            properties().store(out, "HyMPJ hosts");
        }
    }

    public static HostLayout load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return of(p);
    }

    /** The layout as one line of text (as the launcher sends it to a host agent). */
    public String text() {
        StringWriter w = new StringWriter();
        try {
            properties().store(w, null);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return Base64.getEncoder().encodeToString(w.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The layout {@link #text()} wrote. */
    public static HostLayout parse(String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(new String(Base64.getDecoder().decode(text.trim()), StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return of(p);
    }
}
