package org.hympj.shm.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hympj.shm.job.HostLayout;

/**
 * A hostfile as Open MPI reads one: a host per line, {@code HOST [slots=N]} (one slot when not
 * given), {@code #} comments and blank lines ignored. Ranks fill the hosts in order, each up to
 * its slots (Open MPI's --map-by slot).
 */
final class Hostfile {
    private final Path file;
    private final List<String> hosts;
    private final List<Integer> slots;

    private Hostfile(Path file, List<String> hosts, List<Integer> slots) {
        this.file = file;
        this.hosts = hosts;
        this.slots = slots;
    }

    static Hostfile read(Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("--hostfile " + file + ": no such file");
        }
        return parse(file, lines);
    }

    static Hostfile parse(Path file, List<String> lines) {
        List<String> hosts = new ArrayList<>();
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int hash = l.indexOf('#');
            if (hash >= 0) {
                l = l.substring(0, hash);
            }
            l = l.trim();
            if (l.isEmpty()) {
                continue;
            }
            String[] f = l.split("\\s+");
            int n = 1;
            for (int k = 1; k < f.length; k++) {
                String[] kv = f[k].split("=", 2);
                if (kv.length == 2 && (kv[0].equals("slots") || kv[0].equals("max-slots") || kv[0].equals("max_slots"))) {
                    if (kv[0].equals("slots")) {
                        try {
                            n = Integer.parseInt(kv[1]);
                        } catch (NumberFormatException e) {
                            n = -1;
                        }
                        if (n < 1) {
                            throw new IllegalArgumentException("--hostfile " + file + " line " + (i + 1) + ": slots of host "
                                + f[0] + " must be a whole number >= 1, was '" + kv[1] + "'");
                        }
                    }
                } else {
                    throw new IllegalArgumentException("--hostfile " + file + " line " + (i + 1) + ": expected 'HOST slots=N',"
                        + " got '" + lines.get(i).trim() + "'");
                }
            }
            if (hosts.contains(f[0])) {
                throw new IllegalArgumentException("--hostfile " + file + " line " + (i + 1) + ": host " + f[0]
                    + " is listed twice");
            }
            hosts.add(f[0]);
            slots.add(n);
        }
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("--hostfile " + file + " names no host");
        }
        return new Hostfile(file, hosts, slots);
    }

    /** The hosts that {@code np} ranks fill in order, each up to its slots. */
    HostLayout layout(int np) {
        int total = 0;
        for (int s : slots) {
            total += s;
        }
        if (total < np) {
            throw new IllegalArgumentException("--hostfile " + file + " has " + total + " slot" + (total == 1 ? "" : "s")
                + " (" + describe() + ") for -np " + np + "; add hosts or slots, or lower -np");
        }
        List<String> used = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        int left = np;
        for (int h = 0; h < hosts.size() && left > 0; h++) {
            int n = Math.min(left, slots.get(h));
            used.add(hosts.get(h));
            counts.add(n);
            left -= n;
        }
        int[] c = new int[counts.size()];
        for (int i = 0; i < c.length; i++) {
            c[i] = counts.get(i);
        }
        return HostLayout.blocks(used, c);
    }

    private String describe() {
        StringBuilder b = new StringBuilder();
        for (int h = 0; h < hosts.size(); h++) {
            b.append(h == 0 ? "" : ", ").append(hosts.get(h)).append(" slots=").append(slots.get(h));
        }
        return b.toString();
    }
}
