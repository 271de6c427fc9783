package org.hympj.net;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the hosts of a job started without HyMPJ's launcher (by {@code srun} or Open MPI's
 * {@code mpirun}) learn each other's endpoints, with no shared file system: rank 0 serves, on the
 * address:port every rank is given, until every rank of the job has been announced; each host's
 * first rank connects, proves it holds the job's key (HMAC-SHA256 of the server's fresh nonce and
 * its record), announces its host (first rank, rank count, name, endpoint), and receives the table
 * of all hosts, MAC'd by the server in turn. A connection without the key is dropped and logged;
 * the server's port closes once the table is out.
 *
 * <p>A record is {@code first count name endpoint}; the table is the records by first rank, one per
 * line.
 */
public final class Bootstrap {
    private static final Logger LOG = LoggerFactory.getLogger(Bootstrap.class);
    private static final byte[] HELLO = "hympj-bootstrap-1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TABLE = "hympj-table-1".getBytes(StandardCharsets.UTF_8);
    private static final int NONCE = 32;

    private Bootstrap() {
    }

    /** The server of rank 0: binds {@code address:port} now, answers every host from a thread of its own. */
    public static final class Server implements AutoCloseable {
        private final ServerSocket socket;
        private final JobKey key;
        private final int size;
        private final Thread thread;
        private volatile Exception failure;

        /**
         * @throws IOException naming the address when it cannot be bound (not this host's, or the port taken)
         */
        public Server(String address, int port, JobKey key, int size) throws IOException {
            this.key = key;
            this.size = size;
            ServerSocket s = new ServerSocket();
            try {
                s.bind(new InetSocketAddress(InetAddress.getByName(address), port), 64);
            } catch (IOException e) {
                s.close();
                throw new IOException("cannot serve the bootstrap on " + address + ":" + port + " (" + e.getMessage()
                    + "): it must be an address of rank 0's host and a free port", e);
            }
            this.socket = s;
            this.thread = new Thread(this::serve, "hympj-bootstrap");
            thread.setDaemon(true);
            thread.start();
        }

        private void serve() {
            List<Socket> hosts = new ArrayList<>();
            List<String> records = new ArrayList<>();
            List<byte[]> nonces = new ArrayList<>();
            int announced = 0;
            try {
                while (announced < size) {
                    Socket c = socket.accept();
                    byte[] nonce = new byte[NONCE];
                    new SecureRandom().nextBytes(nonce);
                    try {
                        c.setSoTimeout(30_000);
                        DataOutputStream out = new DataOutputStream(c.getOutputStream());
                        out.write(nonce);
                        out.flush();
                        DataInputStream in = new DataInputStream(c.getInputStream());
                        byte[] mac = in.readNBytes(32);
                        String record = in.readUTF();
                        if (!key.verify(concat(HELLO, nonce, record), mac)) {
                            LOG.warn("bootstrap: refused a connection from {}: wrong job key", c.getRemoteSocketAddress());
                            c.close();
                            continue;
                        }
                        String[] f = record.split(" ");
                        int first = Integer.parseInt(f[0]);
                        int count = Integer.parseInt(f[1]);
                        if (first < 0 || count < 1 || first + count > size) {
                            throw new IOException("host " + f[2] + " announces ranks " + first + ".." + (first + count - 1)
                                + " of a job of " + size);
                        }
                        announced += count;
                        hosts.add(c);
                        records.add(record);
                        nonces.add(nonce);
                    } catch (IOException | RuntimeException e) {
                        LOG.warn("bootstrap: dropped a connection from {}: {}", c.getRemoteSocketAddress(), e.toString());
                        c.close();
                    }
                }
                List<String> sorted = new ArrayList<>(records);
                sorted.sort(Comparator.comparingInt(r -> Integer.parseInt(r.split(" ")[0])));
                String table = String.join("\n", sorted);
                for (int i = 0; i < hosts.size(); i++) {
                    DataOutputStream out = new DataOutputStream(hosts.get(i).getOutputStream());
                    out.write(key.mac(concat(TABLE, nonces.get(i), table)));
                    out.writeUTF(table);
                    out.flush();
                }
            } catch (IOException e) {
                if (!socket.isClosed()) {
                    failure = e;
                }
            } finally {
                for (Socket c : hosts) {
                    try {
                        c.close();
                    } catch (IOException ignored) {
                        // gone
                    }
                }
                try {
                    socket.close(); // the port is open no longer than the exchange
                } catch (IOException ignored) {
                    // closed
                }
            }
        }

        /** The failure of the exchange, if any (null while it runs or once it succeeded). */
        public Exception failure() {
            return failure;
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closed
            }
        }
    }

    /**
     * Announces this host's record to the server at {@code address:port} (retrying while it is not
     * up yet, until {@code timeoutMs}) and returns the table of every host.
     *
     * @param connected told the local address of the connection once it is made (the address this
     *     host reaches rank 0 from), before the record is asked for
     * @param record    this host's record, made once the local address is known
     */
    public static String exchange(String address, int port, JobKey key, long timeoutMs,
                                  java.util.function.Function<InetAddress, String> record) throws IOException {
        long until = System.nanoTime() + timeoutMs * 1_000_000L;
        IOException last = null;
        while (System.nanoTime() - until < 0) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(address, port), 2000);
                s.setSoTimeout((int) Math.max(1000, timeoutMs));
                DataInputStream in = new DataInputStream(s.getInputStream());
                byte[] nonce = in.readNBytes(NONCE);
                if (nonce.length != NONCE) {
                    throw new IOException("the bootstrap at " + address + ":" + port + " closed the connection");
                }
                String mine = record.apply(s.getLocalAddress());
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.write(key.mac(concat(HELLO, nonce, mine)));
                out.writeUTF(mine);
                out.flush();
                byte[] mac = in.readNBytes(32);
                String table = in.readUTF();
                if (!key.verify(concat(TABLE, nonce, table), mac)) {
                    throw new IOException("the bootstrap at " + address + ":" + port + " does not hold this job's key");
                }
                return table;
            } catch (java.net.ConnectException | java.net.SocketTimeoutException e) {
                last = e instanceof java.net.ConnectException ? e : last;
                try {
                    Thread.sleep(100);
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the bootstrap");
                }
            } catch (java.io.EOFException e) {
                throw new IOException("the bootstrap at " + address + ":" + port + " refused this host (is "
                    + "HYMPJ_JOB_KEY the same on every host?)", e);
            }
        }
        throw new IOException("no bootstrap answered at " + address + ":" + port + " within " + timeoutMs / 1000
            + " s (it is served by rank 0: HYMPJ_BOOTSTRAP must name rank 0's host)"
            + (last == null ? "" : ": " + last.getMessage()));
    }

    private static byte[] concat(byte[] tag, byte[] nonce, String text) {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[tag.length + nonce.length + t.length];
        System.arraycopy(tag, 0, all, 0, tag.length);
        System.arraycopy(nonce, 0, all, tag.length, nonce.length);
        System.arraycopy(t, 0, all, tag.length + nonce.length, t.length);
        return all;
    }
}
